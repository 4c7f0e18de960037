import LiveRepository

/// The server's answer to a ``SocialMutation``: the server's version of what changed.
///
/// ``records`` starts with the record the mutation was about (the new post, the edited
/// message...), followed by records it changed on the way, such as the post whose
/// `commentCount` grew. Write them all to the cache. A mutation that changed nothing (a second
/// identical reaction, a resent message) still returns the record as the server has it.
public struct SocialMutationResult: Sendable, Hashable {
    /// The changed records in their new state, the mutation's own record first.
    public var records: [SocialRecord]
    /// The records the mutation removed (an unfollow, a removed reaction, a membership left).
    public var deleted: [SocialRecordKey]
    /// The server sequence number after the mutation.
    public var sequence: Int64

    /// Creates a result.
    public init(records: [SocialRecord], deleted: [SocialRecordKey], sequence: Int64) {
        self.records = records
        self.deleted = deleted
        self.sequence = sequence
    }

    /// The first record of type `Record` in ``records``.
    public func first<Record: CacheRecord>(_ type: Record.Type) -> Record? {
        records.lazy.compactMap { $0.record(as: type) }.first
    }
}
