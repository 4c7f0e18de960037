import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import SampleApp
import TestSupport
import Testing

/// A sample environment over a seeded in-memory server on a manual clock (epoch 1_700_000_000),
/// signed in as `ada` with an in-memory cache by default, real time started and no background
/// activity: nothing happens unless a test makes it happen.
@MainActor
final class EnvironmentFixture {
    static let epoch = 1_700_000_000.0

    let clock: ManualClock
    let server: EmbeddedServer
    let client: SocialClient
    let environment: SampleEnvironment

    var readMarkers: ReadMarkers { environment.readMarkers }
    /// The simulated other users: always there, since the fixture's backend is an embedded server.
    var others: OtherUsers {
        guard let others = environment.others else { fatalError("a fixture's environment has an embedded server") }
        return others
    }
    var userId: String { environment.userId }

    /// A new seeded server and an environment over it; waits until the client knows it is connected.
    static func make(
        userId: String = "ada", cache: SQLiteConnection.Location = .inMemory, readMarkersURL: URL? = nil
    ) async throws -> EnvironmentFixture {
        let clock = ManualClock()
        let server = try EmbeddedServer(location: .inMemory, clock: clock, epoch: epoch)
        try await server.seedDemoData()
        return try await make(server: server, clock: clock, userId: userId, cache: cache, readMarkersURL: readMarkersURL)
    }

    /// An environment over an existing server (a second client of the same backend, say).
    static func make(
        server: EmbeddedServer, clock: ManualClock, userId: String = "ada", cache: SQLiteConnection.Location = .inMemory,
        readMarkersURL: URL? = nil
    ) async throws -> EnvironmentFixture {
        let fixture = try EnvironmentFixture(
            server: server, clock: clock, userId: userId, cache: cache, readMarkersURL: readMarkersURL)
        fixture.environment.start(backgroundActivity: false)
        try await fixture.waitForConnection(true)
        return fixture
    }

    private init(
        server: EmbeddedServer, clock: ManualClock, userId: String, cache: SQLiteConnection.Location, readMarkersURL: URL?
    ) throws {
        self.clock = clock
        self.server = server
        let stamps = Stamps()
        client = try SocialClient(
            api: server.connection(userId: userId), userId: userId, cache: cache, now: { stamps.next() })
        let others = EmbeddedServer.demoUserIds.filter { $0 != userId }
        let activity = SimulatedActivity(server: server, seed: 7, interval: .seconds(4), userIds: others)
        environment = SampleEnvironment(
            server: server, client: client, readMarkers: ReadMarkers(url: readMarkersURL), activity: activity)
    }

    /// Waits for `rounds` round trips through the cache's queue: every write queued so far has
    /// committed and the reads it started have been delivered.
    func settle(rounds: Int = 4) async throws {
        for _ in 0..<rounds {
            _ = try await client.store.read { _ in 0 }
        }
    }

    /// Waits until the client has applied the connection event that makes it `connected`.
    func waitForConnection(_ connected: Bool) async throws {
        while client.isConnected != connected {
            try Task.checkCancellation()
            await Task.yield()
        }
    }

    /// Drops the connection and waits until the client knows.
    func goOffline() async throws {
        server.disconnect()
        try await waitForConnection(false)
    }

    /// Restores the connection and waits until the client knows.
    func goOnline() async throws {
        server.reconnect()
        try await waitForConnection(true)
    }

    /// Runs `body` with real time stopped, so the cache hears nothing of what it writes on the server.
    func unheard(_ body: () async throws -> Void) async rethrows {
        client.stopRealtime()
        defer { client.startRealtime() }
        try await body()
    }

    /// Makes `userId` say `text` in a channel, directly on the server; returns the server's message.
    @discardableResult
    func say(_ text: String, in channelId: String, as userId: String = "alan") async throws -> Message {
        let result = try await server.perform(
            .sendText(text, channelId: channelId, clientRequestId: "test-\(UUID().uuidString)"), as: userId)
        return try #require(result.first(Message.self))
    }

    /// The server's messages of a channel, oldest first.
    func serverMessages(_ channelId: String) async throws -> [Message] {
        try await server.records(.messages(channelId: channelId, newestFirst: false))
    }

    /// The server's copy of a channel.
    func serverChannel(_ channelId: String) async throws -> Channel {
        try #require(try await server.record(Channel.self, id: channelId))
    }
}
