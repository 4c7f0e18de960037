import LiveSocial

/// One entry of the server's change log, as a ``ServerStore`` reads it back.
public struct ChangeEntry: Sendable, Equatable {
    /// Its sequence number.
    public let sequence: Int64
    /// The changed record.
    public let key: SocialRecordKey
    /// Whether the record was removed.
    public let isRemoval: Bool
    /// Whether the write created the record (entries written before this was logged say false).
    public let isCreation: Bool
    /// For a removal, the channel whose visibility rules the removed record; nil for other
    /// entries and in files written before removals logged it.
    public let channelId: String?

    /// An entry as read from a store.
    public init(sequence: Int64, key: SocialRecordKey, isRemoval: Bool, isCreation: Bool, channelId: String?) {
        self.sequence = sequence
        self.key = key
        self.isRemoval = isRemoval
        self.isCreation = isCreation
        self.channelId = channelId
    }
}
