import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer

/// The server with one big channel, and a client whose cache already holds every message of it,
/// as an app that has been in the channel all along.
///
/// The server is bulk-loaded with `bulkLoadMessages(count:channelCount: 1)`: the channel
/// `bench-0`, whose messages `bench-user` sent a millisecond apart. The client is signed in as
/// another member, `bench-reader`, so that none of the channel's messages are its own (the
/// collection reads the user's pending and failed messages of the channel on every start).
@MainActor
final class ChatFixture {
    nonisolated static let channelId = "bench-0"
    /// The signed-in user of the client.
    nonisolated static let readerId = "bench-reader"
    /// The sender of the bulk-loaded messages, and of the messages the client misses.
    nonisolated static let senderId = "bench-user"
    /// Messages read from the server per page, and written to the client's cache per `store.write`.
    nonisolated static let pageSize = 50_000

    let server: EmbeddedServer
    let client: SocialClient
    /// The creation times of the channel's oldest and newest messages.
    let oldest: Double
    let newest: Double
    /// How long `bulkLoadMessages` took, and the summed time of the cache's `store.write` calls.
    let serverLoad: Duration
    let cacheWrites: Duration

    private init(
        server: EmbeddedServer, client: SocialClient, oldest: Double, newest: Double, serverLoad: Duration,
        cacheWrites: Duration
    ) {
        self.server = server
        self.client = client
        self.oldest = oldest
        self.newest = newest
        self.serverLoad = serverLoad
        self.cacheWrites = cacheWrites
    }

    /// Loads `messages` into an in-memory server, copies them page by page into a cache file in
    /// `folder` (through a `LiveStore` of its own, with a large page cache, closed afterwards),
    /// then opens the client over that file with real time started.
    static func make(messages: Int, folder: URL, progress: (String) -> Void) async throws -> ChatFixture {
        let clock = ContinuousClock()
        let server = try EmbeddedServer()
        progress("bulk-loading \(messages) messages into the server")
        var start = clock.now
        try await server.bulkLoadMessages(count: messages, channelCount: 1)
        let serverLoad = start.duration(to: clock.now)
        try await server.createUser(id: readerId, displayName: "Reader")
        try await server.perform(.joinChannel(id: channelId), as: readerId)

        progress("copying them into the client's cache")
        let connection = server.connection(userId: readerId)
        let url = folder.appendingPathComponent("client.sqlite")
        let store = try LiveStore(location: .file(url), migrations: LiveSocialSchema.migrations)
        try await store.write { try $0.connection.execute("PRAGMA cache_size = -\(512 * 1024)") }
        guard let channel = try await connection.fetch(Channel.self, id: channelId) else {
            throw FixtureError("the server has no channel \(channelId)")
        }
        try await store.write { _ = try $0.upsert(channel) }
        let oldestFirst = SocialQuery<Message>.messages(channelId: channelId, newestFirst: false)
        var position = MessagePosition.after(-.infinity, inclusive: true)
        var copied = 0
        var cacheWrites = Duration.zero
        var oldest: Double?
        var newest: Double?
        while true {
            let page = try await connection.fetchMessages(oldestFirst, after: position, limit: pageSize)
            guard let last = page.last else { break }
            oldest = oldest ?? page.first?.createdAt
            newest = last.createdAt
            start = clock.now
            try await store.write { _ = try $0.upsert(contentsOf: page) }
            cacheWrites += start.duration(to: clock.now)
            copied += page.count
            position = MessagePosition(of: last)
        }
        await store.close()
        guard copied == messages, let oldest, let newest else {
            throw FixtureError("copied \(copied) messages into the cache, not \(messages)")
        }

        let client = try SocialClient(api: connection, userId: readerId, cache: .file(url))
        client.startRealtime()
        let fixture = ChatFixture(
            server: server, client: client, oldest: oldest, newest: newest, serverLoad: serverLoad,
            cacheWrites: cacheWrites)
        await fixture.waitUntilConnected(true)
        return fixture
    }

    /// Returns once the client has applied the connection event that says it is (or is not) connected.
    func waitUntilConnected(_ connected: Bool) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while client.isConnected != connected {
            if clock.now > deadline { fatalError("the client did not see the connection go \(connected ? "up" : "down")") }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
