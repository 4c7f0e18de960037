import LiveRepository

/// What changed on the server after a sequence number: the answer to ``SocialAPI/changes(since:limit:scope:)``.
///
/// Every write on the server gets the next number of one server-wide sequence. A client keeps
/// the latest number it has applied (from a change log or a ``SocialEvent``) and, after being
/// offline, asks for the changes since it. A record that changed several times appears once,
/// in its current state; soft-deleted records appear in ``records`` with `isDeleted` set, and
/// records that were removed (reactions, follows, memberships) appear in ``deleted``.
public struct ChangeLog: Sendable, Hashable {
    /// The records created or updated, in their current state, in the order they last changed.
    public var records: [SocialRecord]
    /// The records removed from the server.
    public var deleted: [SocialRecordKey]
    /// The sequence number of the last change included; ask for the changes since it next.
    /// Equals the `since` asked for when nothing changed.
    public var latestSequence: Int64
    /// Whether more changes follow: ask again from ``latestSequence``.
    public var hasMore: Bool

    /// Creates a change log.
    public init(records: [SocialRecord], deleted: [SocialRecordKey], latestSequence: Int64, hasMore: Bool) {
        self.records = records
        self.deleted = deleted
        self.latestSequence = latestSequence
        self.hasMore = hasMore
    }

    /// The changed records of one model type.
    public func records<Record: CacheRecord>(of type: Record.Type) -> [Record] {
        records.compactMap { $0.record(as: type) }
    }
}
