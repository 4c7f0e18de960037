import LiveRepository

/// Records the client wrote to its cache in one commit, and why: what chat collections hear.
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

/// A chat collection the client tells about committed changes and the connection.
@MainActor
protocol ChatChangeListener: AnyObject {
    /// Called after a change of messages or channels committed, and after every applied real-time
    /// event (whose change may touch neither), in commit order.
    func clientDidCommit(_ change: ChatChange)
    /// Called when the connection comes back up: the moment to catch up with the change log.
    func clientDidConnect()
    /// Called when the connection drops.
    func clientDidDisconnect()
}
