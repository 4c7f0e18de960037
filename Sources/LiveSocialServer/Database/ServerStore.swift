import LiveRepository
import LiveSocial

/// Where an ``EmbeddedServer`` keeps its data: the social records, the change log, id counters,
/// the last timestamp handed out and the answers of idempotent requests.
///
/// The domain rules (``EmbeddedServer``'s mutations, authorization and change logs) are written
/// once against this protocol. Two stores implement it: the SQLite file of the embedded server
/// (the default) and, in the server package, a PostgreSQL database that several server
/// instances share.
///
/// A store is synchronous and not thread-safe: the server calls it from its own isolation only,
/// which runs on ``executor``. A store that waits for a network database blocks that executor's
/// thread, so such a store supplies an executor of its own (a dedicated thread), never a thread
/// of the cooperative pool or of an event loop.
///
/// Sequence numbers of the change log must be gapless in commit order: a reader that has seen
/// number `n` never later finds a committed entry below `n`.
public protocol ServerStore: AnyObject {
    /// The executor the server's isolation runs on, and with it every call to the store.
    var executor: UnownedSerialExecutor { get }

    /// Runs `body` in a write transaction; what it reads cannot change under it, and another
    /// writer waits for it (or it for them). Nested calls run in savepoints.
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// Runs `body` in a read transaction: every read sees one snapshot.
    func readTransaction<T>(_ body: () throws -> T) throws -> T

    /// The record of a type with `id`, if stored.
    func load<Record: CacheRecord>(_ type: Record.Type, id: String) throws -> Record?
    /// Inserts a record, or replaces the record with its id.
    func upsert<Record: CacheRecord>(_ record: Record) throws
    /// Removes a record for good; nothing happens when it is absent.
    func remove(_ key: SocialRecordKey) throws
    /// Up to `limit` records that `query` lists (and `filter` admits), in the query's order
    /// (NULL sort values first when ascending, last when descending), strictly after `position`
    /// when one is given; each with its sort column's value, for keyset paging.
    ///
    /// - Parameter filter: a further condition in SQL common to SQLite and PostgreSQL, with `?`
    ///   placeholders and their bindings, in order.
    func records<Record: CacheRecord>(
        _ query: CacheQuery<Record>, filter: StoreFilter?, after position: StorePosition?, limit: Int
    ) throws -> [(record: Record, sortValue: SQLiteValue)]
    /// The users with a membership row in a channel, and each one's membership (its raw value).
    func channelMemberships(of channelId: String) throws -> [(userId: String, membership: String)]

    /// Logs a change and returns its sequence number; call it in a write transaction.
    func appendChange(_ change: ChangeRecord) throws -> Int64
    /// Up to `limit` change-log entries after `sequence`, oldest first.
    func changeEntries(after sequence: Int64, scope: ChangeScope, limit: Int) throws -> [ChangeEntry]
    /// The channel logged with the change of `sequence`.
    func loggedChannelId(sequence: Int64) throws -> String?
    /// The highest sequence number committed; 0 before the first change.
    func latestSequence() throws -> Int64

    /// The time for a write: `clockTime`, or a millisecond after the last timestamp handed out
    /// (by any server on this store) if that is later. Stored: call it in a write transaction.
    func nextTimestamp(clockTime: Double) throws -> Double
    /// Makes later timestamps come after `timestamp` (for writes that set their own times).
    func reserveTimestamps(through timestamp: Double) throws
    /// Whether a named counter has been taken at least once.
    func hasCounter(_ name: String) throws -> Bool
    /// The next value of a named counter, starting at 1; used for server ids.
    func nextCounter(_ name: String) throws -> Int

    /// The stored answer of an idempotent request: `key` as its sender gave it, per user.
    func idempotentAnswer(key: String, userId: String) throws -> [UInt8]?
    /// Keeps the answer of an idempotent request, stored at `time`, and forgets the answers
    /// stored at or before `oldest`; call it in the write transaction of the request's changes,
    /// so that the answer and the data commit together or not at all.
    func storeIdempotentAnswer(_ answer: [UInt8], key: String, userId: String, at time: Double, keepingAfter oldest: Double) throws

    /// Says which records and which channels' memberships the transaction under way is about to
    /// read, so that a store that pays a round trip per read (PostgreSQL) fetches them in one.
    /// What is read afterwards is the same as without it; outside a transaction, or in a store
    /// that reads locally (SQLite, the default), it does nothing.
    func prepareToRead(records keys: [SocialRecordKey], membershipsOf channelIds: [String]) throws
}

extension ServerStore {
    public func prepareToRead(records keys: [SocialRecordKey], membershipsOf channelIds: [String]) throws {}
}
