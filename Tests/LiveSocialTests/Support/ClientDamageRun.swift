import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

/// One case of `SocialClientCorruptionTests`: a client fills its cache from a server on a file,
/// the cache is damaged, a new client opens it and loads again; the server's file must be what it
/// was, and the new client must recover (or fail naming the cache file).
@MainActor
struct ClientDamageRun {
    let seed: UInt64
    let damage: CacheFileDamage
    private var random: SeededRandom
    var steps: [String] = []
    var problems: [String] = []
    /// How the client met the damage: recoveredAtOpen, recoveredWhileRunning, thrownAtOpen or
    /// unaffected.
    var outcome = "unaffected"

    init(seed: UInt64) {
        self.seed = seed
        damage = CacheFileDamage.allCases[Int((seed - 1) % UInt64(CacheFileDamage.allCases.count))]
        random = SeededRandom(seed: seed)
    }

    /// The server's file and the cache file, each in a folder of its own under `directory`.
    static func folders(in directory: TemporaryDirectory) throws -> (server: URL, cache: URL) {
        let server = directory.url.appendingPathComponent("server", isDirectory: true)
        let cache = directory.url.appendingPathComponent("cache", isDirectory: true)
        for folder in [server, cache] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        return (server.appendingPathComponent("server.sqlite"), cache.appendingPathComponent("cache.sqlite"))
    }

    /// Opens a community feed and a channel's messages and waits until both are fresh from the
    /// server, then checks that everything shown is on the server. Returns how many records.
    @discardableResult
    static func loadFresh(_ client: SocialClient, from server: EmbeddedServer) async throws -> Int {
        let feed = client.posts.communityFeed(communityId: "swift")
        let messages = client.messages.messages(channelId: "general")
        let (feedLog, feedToken) = feed.record()
        let (messageLog, messageToken) = messages.record()
        defer { feedToken.invalidate(); messageToken.invalidate() }
        let posts = try await withTimeout {
            try await feed.next(in: feedLog) { $0.dataStatus == .fresh && $0.loadingStatus == .loaded }.records
        }
        let shown = try await withTimeout {
            try await messages.next(in: messageLog) { $0.dataStatus == .fresh && $0.loadingStatus == .loaded }.records
        }
        let serverPosts = Set(try await server.records(.communityFeed(communityId: "swift")).map(\.id))
        let serverMessages = Set(try await server.records(.messages(channelId: "general", newestFirst: false)).map(\.id))
        guard !posts.isEmpty, !shown.isEmpty, posts.allSatisfy({ serverPosts.contains($0.id) }),
              shown.allSatisfy({ serverMessages.contains($0.id) }) else {
            throw Mismatch(message: "shown \(posts.count) posts and \(shown.count) messages, not all on the server")
        }
        return posts.count + shown.count
    }

    struct Mismatch: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    mutating func play() async {
        do {
            try await playThrowing()
        } catch {
            problems.append("the case failed: \(error)")
        }
    }

    private mutating func playThrowing() async throws {
        let directory = try TemporaryDirectory()
        let (serverURL, cacheURL) = try Self.folders(in: directory)
        let server = try EmbeddedServer(location: .file(serverURL), clock: ManualClock(), epoch: 1_700_000_000, externalChanges: .off)
        _ = try await server.seedDemoData()
        let stamps = Stamps()
        let open = { try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(cacheURL), now: { stamps.next() }) }
        do {
            let client = try open()
            client.startRealtime()
            let loaded = try await Self.loadFresh(client, from: server)
            client.stopRealtime()
            _ = try await client.store.read { try $0.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int(0) } }
            await client.store.close()
            steps.append("a client loaded \(loaded) records into its cache")
        }
        let before = try ServerFileContents(of: serverURL)
        steps.append("damaged the cache: \(try damage.apply(to: cacheURL, random: &random))")

        let client: SocialClient
        do {
            client = try open()
        } catch {
            outcome = "thrownAtOpen"
            steps.append("opening threw: \(error)")
            if !"\(error)".contains(cacheURL.path) { problems.append("the error does not name the cache file: \(error)") }
            // The cache's folder is writable: damage there is recovered, never a reason to fail.
            problems.append("opening a damaged cache in a writable folder failed instead of recovering: \(error)")
            try checkServer(serverURL, before: before)
            return
        }
        if let recovery = client.store.recovery {
            outcome = "recoveredAtOpen"
            steps.append("opening recovered: \(recovery)")
            if recovery.movedTo.deletingLastPathComponent() != cacheURL.deletingLastPathComponent() {
                problems.append("the damaged cache was moved out of its folder: \(recovery.movedTo.path)")
            }
        }
        client.startRealtime()
        do {
            let loaded = try await Self.loadFresh(client, from: server)
            steps.append("the new client loaded \(loaded) records")
        } catch {
            problems.append("the client over the damaged cache did not load fresh data from the server: \(error)")
        }
        if client.store.recovery == nil, let recovery = client.store.latestRecovery {
            outcome = "recoveredWhileRunning"
            steps.append("recovered while running: \(recovery)")
        }
        client.stopRealtime()
        await client.store.close()
        try checkServer(serverURL, before: before)
    }

    /// The server's file must be row for row and byte for byte what it was, and its folder must
    /// hold nothing moved aside.
    private mutating func checkServer(_ url: URL, before: ServerFileContents) throws {
        let after = try ServerFileContents(of: url)
        if after != before { problems.append("the server's file changed: \(before.differences(from: after))") }
        let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        if names.contains(where: { $0.contains("damaged") }) { problems.append("something was moved aside in the server's folder: \(names)") }
    }
}
