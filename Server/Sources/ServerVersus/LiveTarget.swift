import Foundation
import LiveDataPostgres
import LiveDataServer
import LiveSocial
import LiveSocialServer
import LiveSocialWire

/// The real server, `LiveDataServer`, in this process on a free loopback port over a fresh data
/// folder, with `readers` users of its own (`reader-0`...), each a member of the demo's public
/// channel `general`, signed in over HTTP. On PostgreSQL it may be several instances (each on a
/// port of its own, all on one database and one data folder), the streams and senders dealt out
/// to them in turn.
///
/// Two settings differ from `livedata-server`'s defaults, and say so in the output: the
/// per-token rate limit is lifted (the default, 100 requests a second, would cap the load phase,
/// not the server), and passwords use the tests' cheap scrypt cost (a thousand sign-ins at the
/// standard cost take minutes and are not what is measured).
final class LiveTarget: BenchTarget {
    let name: String
    /// Each instance's port.
    let ports: [Int]
    var port: Int { ports[0] }
    /// The session token of each reader, by index.
    let tokens: [String]
    let servers: [LiveDataServer]
    private let tasks: [Task<Void, any Error>]
    private let folder: URL

    private init(name: String, ports: [Int], tokens: [String], servers: [LiveDataServer], tasks: [Task<Void, any Error>], folder: URL) {
        self.name = name
        self.ports = ports
        self.tokens = tokens
        self.servers = servers
        self.tasks = tasks
        self.folder = folder
    }

    func streamPort(index: Int) -> Int { ports[index % ports.count] }
    func senderPort(sender: Int) -> Int { ports[sender % ports.count] }

    /// Starts the server (`instances` of it on `postgres`, one on SQLite without it), adds
    /// `readers` users to `general` and signs each in over HTTP.
    static func start(
        readers: Int, name: String = "livedata-server", postgres: PostgresLocation? = nil, instances: Int = 1
    ) async throws -> LiveTarget {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("server-versus-\(UUID().uuidString)", isDirectory: true)
        var configuration = ServerConfiguration(dataFolder: folder)
        configuration.postgres = postgres
        configuration.port = 0
        configuration.passwordHasher = .fastForTests
        configuration.rateLimitPerSecond = 1_000_000
        configuration.rateLimitBurst = 1_000_000
        configuration.signInPerSecond = 1_000_000
        configuration.signInBurst = 1_000_000
        configuration.signInTotalPerSecond = 1_000_000
        configuration.signInTotalBurst = 1_000_000
        configuration.print = { _ in }
        var servers: [LiveDataServer] = []
        var tasks: [Task<Void, any Error>] = []
        var ports: [Int] = []
        for _ in 0..<(postgres == nil ? 1 : max(1, instances)) {
            // One after the other: the first makes the tables and the demo data.
            let server = try await LiveDataServer.open(configuration)
            let (started, continuation) = AsyncStream<Int>.makeStream()
            tasks.append(Task { try await server.run { continuation.yield($0) } })
            var iterator = started.makeAsyncIterator()
            guard let port = await iterator.next() else { throw BenchError("livedata-server did not start") }
            servers.append(server)
            ports.append(port)
        }
        let server = servers[0]
        let port = ports[0]

        var passwords: [String] = []
        for index in 0..<readers {
            let userId = "reader-\(index)"
            let password = UUID().uuidString
            try await server.socialServer.createUser(id: userId, displayName: "Reader \(index)")
            try await server.socialServer.addMember(userId, toChannel: "general")
            try server.identity.setPassword(password, for: userId)
            passwords.append(password)
        }
        let signIns = passwords
        let tokens = try await onThread {
            let connection = try HTTPConnection(port: port)
            return try signIns.enumerated().map { index, password in
                let body = try SocialWire.encode(SignInRequest(userId: "reader-\(index)", password: password))
                let (status, answer) = try connection.send(
                    "POST", WireRoute.sessions, headers: [("Content-Type", "application/json")], body: Array(body))
                guard status == 200 else { throw BenchError("sign-in answered \(status): \(String(decoding: answer, as: UTF8.self))") }
                return try SocialWire.decode(SessionBody.self, from: Data(answer)).token
            }
        }
        return LiveTarget(name: name, ports: ports, tokens: tokens, servers: servers, tasks: tasks, folder: folder)
    }

    func streamRequest(index: Int) -> [UInt8] {
        Array("""
            GET \(WireRoute.events) HTTP/1.1\r
            Host: 127.0.0.1:\(port)\r
            Accept: text/event-stream\r
            Authorization: Bearer \(tokens[index])\r
            \r

            """.utf8)
    }

    /// A text message in `general` from reader number `sender`, through `POST /v1/mutations`
    /// with its client request id as the Idempotency-Key, as `LiveSocialNetwork` sends one.
    func send(_ number: Int, sender: Int, over connection: HTTPConnection) throws {
        let requestId = UUID().uuidString
        let body = try SocialWire.encode(MutationRequest(
            mutation: .sendText("bench-\(number)", channelId: "general", clientRequestId: requestId)))
        let (status, answer) = try connection.send(
            "POST", WireRoute.mutations,
            headers: [
                ("Authorization", "Bearer \(tokens[sender])"), ("Content-Type", "application/json"),
                (WireRoute.idempotencyKeyHeader, requestId),
            ],
            body: Array(body))
        guard status == 200 else { throw BenchError("a send answered \(status): \(String(decoding: answer, as: UTF8.self))") }
    }

    /// Removes the data folder.
    func removeFolder() {
        try? FileManager.default.removeItem(at: folder)
    }
}
