import Foundation
import LiveRepository
import LiveSocial

/// The shared file and its messages. Every message is in one channel; message `n` (0 is the seed
/// the observing process writes, 1… are the writer's commits) has the id `m` followed by `n` in
/// nine digits, a `createdAt` that grows with `n`, and, as its text, the shared clock's time
/// (``SharedClock``) read in the writer's transaction just before the upsert: latencies measured
/// from it include the rest of A's transaction, the upsert, the change log's row and the commit
/// (about 0.25 ms at the median on the 2-core Linux VM of Benchmarks/README.md, traced).
///
/// A message of the latency scenario has a second stamp in its text, after a space
/// (``stampCommit(_:in:)``): the time read after the upsert, as the last thing the writer's block
/// does, so that what follows it is the statement storing it and the commit (the store's
/// change-log row, the `COMMIT`, the wake-up).
enum Fixture {
    static let channel = "cross-process"

    /// Opens (creating) a cache file with the social schema, at the default settings, or
    /// checking for other processes' commits every `pollMilliseconds`.
    static func open(_ url: URL, pollMilliseconds: Int? = nil) throws -> LiveStore {
        guard let pollMilliseconds else {
            return try LiveStore(location: .file(url), migrations: LiveSocialSchema.migrations)
        }
        return try LiveStore(
            location: .file(url), migrations: LiveSocialSchema.migrations,
            externalChanges: .polling(every: .milliseconds(pollMilliseconds)))
    }

    /// Creates the file at `url` with the seed message, and closes it.
    static func create(_ url: URL) async throws {
        let store = try open(url)
        try await store.write { try $0.upsert(message(0, stamp: SharedClock.now())) }
        await store.close()
    }

    /// Message `number`, stamped with `stamp`.
    static func message(_ number: Int, stamp: UInt64) -> Message {
        let createdAt = 1_700_000_000 + Double(number) * 0.001
        return Message(
            id: id(number), clientRequestId: "request-\(number)", channelId: channel, userId: "writer",
            text: String(stamp), createdAt: createdAt, updatedAt: createdAt)
    }

    /// The id of message `number`.
    static func id(_ number: Int) -> String {
        let digits = String(number)
        return "m" + String(repeating: "0", count: max(0, 9 - digits.count)) + digits
    }

    /// The number of the message with `id`; nil for another id.
    static func number(_ id: String) -> Int? {
        id.first == "m" ? Int(id.dropFirst()) : nil
    }

    /// The live collection process B observes: the channel oldest first, anchored at the end,
    /// so that each new message enters at the end of its window and ``LiveCollection/count``
    /// grows by one per commit.
    @MainActor
    static func collection(_ store: LiveStore) -> LiveCollection<Message> {
        LiveCollection(
            store: store,
            query: SocialQuery<Message>.messages(channelId: channel, newestFirst: false).cacheQuery,
            pageSize: 20, anchor: .end, fetchPage: nil)
    }

    /// Inside A's write of message `number`, after its upsert: appends the shared clock's time
    /// to its text, the commit's stamp. The `UPDATE` rewrites the row the upsert just wrote (a
    /// page already in the transaction) and is not part of the store's change: B sees the same
    /// change with or without it.
    static func stampCommit(_ number: Int, in transaction: CacheTransaction) throws {
        let stamp = SharedClock.now()
        try transaction.connection.execute(
            "UPDATE messages SET text = text || ' ' || ? WHERE id = ?", [.text(String(stamp)), .text(id(number))])
    }

    /// The newest 20 message ids of the channel, newest first: what GRDB's observation and the
    /// naive loop read.
    static let newestIdsSQL = """
        SELECT id FROM messages WHERE channelId = '\(channel)' AND isDeleted = 0 \
        ORDER BY createdAt DESC, id DESC LIMIT 20
        """

    /// A message's stamps: read just before its upsert, and, in the latency scenario, just
    /// before its commit (``stampCommit(_:in:)``).
    struct Stamps {
        var beforeUpsert: UInt64
        var beforeCommit: UInt64?
    }

    /// Every message's number and stamps, read once the run is over.
    static func stamps(_ url: URL) throws -> [Int: Stamps] {
        let connection = try SQLiteConnection(location: .file(url), readOnly: true)
        defer { connection.close() }
        let rows = try connection.query("SELECT id, text FROM messages WHERE channelId = ?", [.text(channel)]) { row in
            let parts = row.string(1).split(separator: " ").map { UInt64($0) }
            return (number(row.string(0)), parts.first ?? nil, parts.count > 1 ? parts[1] : nil)
        }
        var stamps: [Int: Stamps] = [:]
        for case let (number?, upsert?, commit) in rows { stamps[number] = Stamps(beforeUpsert: upsert, beforeCommit: commit) }
        return stamps
    }
}
