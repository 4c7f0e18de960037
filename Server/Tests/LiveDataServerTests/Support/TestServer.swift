import Foundation
import LiveDataServer
import LiveSocial
import LiveSocialServer
import Testing

/// A `LiveDataServer` on a loopback port of its own, over a fresh data folder, with a clock the
/// test moves. Stop it with ``stop()``.
final class TestServer: Sendable {
    let server: LiveDataServer
    let clock: TestClock
    let port: Int
    let folder: URL
    /// The demo users' passwords, read from the demo-credentials file.
    let passwords: [String: String]
    private let task: Task<Void, any Error>

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(server: LiveDataServer, clock: TestClock, port: Int, folder: URL, task: Task<Void, any Error>) throws {
        self.server = server
        self.clock = clock
        self.port = port
        self.folder = folder
        self.task = task
        let text = try String(contentsOf: folder.appendingPathComponent(DemoCredentials.fileName), encoding: .utf8)
        var passwords: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            passwords[String(parts[0])] = String(parts[1])
        }
        self.passwords = passwords
    }

    /// Starts a server; `configure` adjusts its configuration (a cheap password hash and quiet
    /// output are already set).
    static func start(
        folder: URL? = nil, _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let folder = folder ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("livedata-server-tests-\(UUID().uuidString)", isDirectory: true)
        let clock = TestClock()
        var configuration = ServerConfiguration(dataFolder: folder)
        configuration.port = 0
        configuration.passwordHasher = .fastForTests
        configuration.now = { clock.now }
        configuration.print = { _ in }
        configure(&configuration)
        let server = try await LiveDataServer.open(configuration)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            try await server.run { continuation.yield($0) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestServerError("the server did not start") }
        return try TestServer(server: server, clock: clock, port: port, folder: folder, task: task)
    }

    /// Stops the server and removes its data folder (unless told to keep it).
    func stop(removingFolder: Bool = true) async {
        task.cancel()
        _ = await task.result
        await server.close()
        if removingFolder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Signs in as `userId` with the demo password; fails the test when refused.
    func signIn(_ userId: String) async throws -> String {
        let password = try #require(passwords[userId])
        let answer = try await HTTP.send(
            "POST", baseURL.appendingPathComponent("v1/sessions"),
            json: ["userId": userId, "password": password])
        try #require(answer.status == 200, "sign-in answered \(answer.status): \(answer.text)")
        return try #require(answer.object?["token"] as? String)
    }

    /// A fingerprint of the social data: the latest sequence number and every id of every kind.
    func dataFingerprint() async throws -> String {
        var parts = ["sequence \(try await server.socialServer.latestSequence())"]
        for kind in SocialRecordKind.allCases {
            let ids = try await server.socialServer.ids(of: kind, includeDeleted: true)
            parts.append("\(kind.rawValue): \(ids.sorted().joined(separator: ","))")
        }
        return parts.joined(separator: "\n")
    }
}

/// Runs `body` with a server started with `configure` (on `folder`, else a fresh one), and stops
/// the server afterwards, whether `body` throws or not. `body` runs in the caller's isolation, so
/// a main-actor test can use main-actor types (`SocialClient`) in it.
func withServer(
    folder: URL? = nil, configure: sending ((inout ServerConfiguration) -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestServer) async throws -> Void
) async throws {
    let server = try await TestServer.start(folder: folder, configure ?? { _ in })
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

struct TestServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
