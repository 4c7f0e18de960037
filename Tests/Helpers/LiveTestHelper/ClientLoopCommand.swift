import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer

/// `client-loop <folder> <user> <seed> <run> [--actions N] [--latency-ms N] [--drain]`: a chat
/// app's client that the crash tests kill with `SIGKILL` and start again on the same files.
///
/// Like the sample's processes, it runs an `EmbeddedServer` of its own on the shared server file
/// `<folder>/server.sqlite` (seeded with the demo data once) with `latency-ms` of real-time
/// latency (0 by default), and a `SocialClient` for `user` over the cache `<folder>/cache.sqlite`,
/// with real time on and a `MessageCollection` of #general open. It prints
/// `opened recovery=<none|what happened> pending=<n>` (`n`: messages an earlier run left pending),
/// then plays `N` actions (100 by default) from the seed and the run number, each with a label
/// unique to them (`s<seed>r<run>n<counter>`, carried by messages in `metaArrays["label"]`):
///
/// - sends one to three messages, printing `issued send <label>` for each, then `pending <label>`
///   once the collection shows it pending (its pending copy has committed to the cache; the next
///   action waits for that, as a user waits for the echo, and two times in five for the answers
///   too), and later `accepted send <label> <id>` when the server answered, or
///   `failed send <label> <error>`;
/// - edits one of this run's sent messages (`issued edit <id> <label>`, then `accepted edit …`
///   or `failed edit …`), waiting for the answer;
/// - reacts to one (`issued react <id> <name>`, `accepted react …`), or takes back one of this
///   run's reactions (`issued unreact <id> <name>`, `accepted unreact …`), waiting too.
///
/// A message that an earlier run left pending and that becomes sent prints `resent <label> <id>`.
/// Every message of the user the server stores prints `server <label>` as the server publishes it,
/// before the client has its answer: the test's kills that follow such a line tend to fall
/// between the server's commit and the client's.
/// After the last action and the last answer it prints `done` and exits 0.
///
/// With `--drain` it plays no action: it sends what is pending, waits until no message of `user`
/// is pending (bounded: 20 s), prints `drained failed=<n>` and exits 0 (1 when the wait ran out).
enum ClientLoopCommand {
    static let channelId = "general"

    @MainActor
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count >= 4, let seed = UInt64(arguments[2]), let run = Int(arguments[3]) else {
            ServerIO.complain("usage: client-loop <folder> <user> <seed> <run> [--actions N] [--latency-ms N] [--drain]")
            return 64
        }
        let folder = URL(fileURLWithPath: arguments[0])
        let userId = arguments[1]
        let actions = option("--actions", in: arguments).flatMap(Int.init) ?? 100
        let latency = option("--latency-ms", in: arguments).flatMap(Int.init) ?? 0
        let client: SocialClient
        let server: EmbeddedServer
        do {
            server = try EmbeddedServer(
                location: .file(folder.appendingPathComponent("server.sqlite")), latency: .milliseconds(latency))
            _ = try await server.seedDemoData()
            client = try SocialClient(
                api: server.connection(userId: userId), userId: userId,
                cache: .file(folder.appendingPathComponent("cache.sqlite")))
        } catch {
            ServerIO.complain("client-loop cannot open \(folder.path): \(error)")
            return 1
        }
        let recovery = client.store.recovery.map { "\($0)".replacingOccurrences(of: "\n", with: " ") } ?? "none"
        let leftPending: [String]
        do {
            leftPending = try await client.store.read { connection in
                try connection.query(
                    """
                    SELECT json_extract(metaArrays, '$.label[0]') FROM messages
                    WHERE userId = ? AND id = clientRequestId AND syncState = 'syncing'
                    """, [.text(userId)]) { $0.string(0) }
            }
        } catch {
            ServerIO.complain("client-loop cannot read the cache: \(error)")
            return 1
        }
        ServerIO.say("opened recovery=\(recovery) pending=\(leftPending.count)")

        // The moment the server stored a message, before the client hears its answer: a kill
        // that follows this line is likely to cut the answer off.
        let stored = server.connection(userId: userId).events()
        let storedListener = Task {
            for await event in stored {
                guard case .created(.message(let message), _) = event, message.userId == userId,
                      let label = message.metaArrays["label"]?.first else { continue }
                ServerIO.say("server \(label)")
            }
        }
        defer { storedListener.cancel() }

        let watcher = ClientLoopWatcher(userId: userId)
        watcher.leftPending = Set(leftPending)
        var params = MessageListParams()
        params.includeMetaArray = true
        let collection = client.createMessageCollection(channelId: channelId, params: params)
        collection.delegate = watcher
        client.startRealtime()
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            collection.startCollection(apiResultHandler: { _, _ in started.resume() })
        }

        if arguments.contains("--drain") {
            return await drain(client, of: userId)
        }
        let loop = ClientLoop(client: client, watcher: watcher, seed: seed, run: run)
        await loop.play(actions)
        collection.dispose()
        ServerIO.say("done")
        return 0
    }

    /// Sends what is pending and waits until nothing is.
    @MainActor
    private static func drain(_ client: SocialClient, of userId: String) async -> Int32 {
        client.messages.resendPendingMessages()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        do {
            while try await pendingCount(in: client.store, of: userId) > 0 {
                guard clock.now < deadline else {
                    ServerIO.say("stuck pending=\(try await pendingCount(in: client.store, of: userId))")
                    return 1
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            let failed = try await client.store.read { connection in
                try connection.query(
                    "SELECT count(*) FROM messages WHERE userId = ? AND id = clientRequestId AND syncState = 'error'",
                    [.text(userId)]) { $0.int(0) }.first ?? 0
            }
            ServerIO.say("drained failed=\(failed)")
            return 0
        } catch {
            ServerIO.complain("client-loop drain failed: \(error)")
            return 1
        }
    }

    /// How many of `userId`'s messages are pending in the cache.
    private static func pendingCount(in store: LiveStore, of userId: String) async throws -> Int {
        try await store.read { connection in
            try connection.query(
                "SELECT count(*) FROM messages WHERE userId = ? AND id = clientRequestId AND syncState = 'syncing'",
                [.text(userId)]) { $0.int(0) }.first ?? 0
        }
    }

    private static func option(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }
}
