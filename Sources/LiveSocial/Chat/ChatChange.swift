import LiveRepository

/// Records the client wrote to its cache in one write, and why: the note the write carries
/// through the store's change hub to every chat collection (see `SocialClient.enqueueCommit`).
///
/// The hub hands chat collections the notes of their own store's writes, which hold the records
/// as written, so that a collection applies them at once without reading; commits that reach
/// the cache any other way (another connection or process on the same file, a recovery) come
/// as the rows they changed, which a collection reads (``MessageEventSource/cache``).
struct ChatChange: Sendable {
    /// Records stored, in their new state.
    var upserts: [SocialRecord] = []
    /// Records removed from the cache.
    var removals: [SocialRecordKey] = []
    /// The client request ids of pending messages removed because the user canceled them.
    var canceled: Set<String> = []
    /// Where the change came from.
    var source: MessageEventSource
    /// The server sequence number of the real-time event that made the change, if one did.
    var sequence: Int64?

    /// Writes the change: removals first, then the records (a server copy of one of the user's
    /// messages replaces its pending copy).
    func write(in transaction: CacheTransaction, ownerId: String) throws {
        for key in removals { try key.remove(from: transaction) }
        for record in upserts { try record.store(in: transaction, ownerId: ownerId) }
    }

    /// Whether it touches messages or channels, the records chat collections show.
    var touchesChat: Bool {
        upserts.contains { $0.kind == .message || $0.kind == .channel }
            || removals.contains { $0.kind == .message || $0.kind == .channel }
    }
}
