import Foundation
import LiveDataServer
import LiveSocial
import LiveSocialServer
import LiveSocialWire

/// The real server, `LiveDataServer`, in this process on a free loopback port over a fresh data
/// folder, with `readers` users of its own (`reader-0`...), each a member of the demo's public
/// channel `general`, signed in over HTTP.
///
/// Two settings differ from `livedata-server`'s defaults, and say so in the output: the
/// per-token rate limit is lifted (the default, 100 requests a second, would cap the load phase,
/// not the server), and passwords use the tests' cheap scrypt cost (a thousand sign-ins at the
/// standard cost take minutes and are not what is measured).
final class LiveTarget: BenchTarget {
    let name = "livedata-server"
    let port: Int
    /// The session token of each reader, by index.
    let tokens: [String]
    let server: LiveDataServer
    private let task: Task<Void, any Error>
    private let folder: URL

    private init(port: Int, tokens: [String], server: LiveDataServer, task: Task<Void, any Error>, folder: URL) {
        self.port = port
        self.tokens = tokens
        self.server = server
        self.task = task
        self.folder = folder
    }

    /// Starts the server, adds `readers` users to `general` and signs each in over HTTP.
    static func start(readers: Int) async throws -> LiveTarget {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("server-versus-\(UUID().uuidString)", isDirectory: true)
        var configuration = ServerConfiguration(dataFolder: folder)
        configuration.port = 0
        configuration.passwordHasher = .fastForTests
        configuration.rateLimitPerSecond = 1_000_000
        configuration.rateLimitBurst = 1_000_000
        configuration.signInPerSecond = 1_000_000
        configuration.signInBurst = 1_000_000
        configuration.signInTotalPerSecond = 1_000_000
        configuration.signInTotalBurst = 1_000_000
        configuration.print = { _ in }
        let server = try await LiveDataServer.open(configuration)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task { try await server.run { continuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw BenchError("livedata-server did not start") }

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
        return LiveTarget(port: port, tokens: tokens, server: server, task: task, folder: folder)
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
