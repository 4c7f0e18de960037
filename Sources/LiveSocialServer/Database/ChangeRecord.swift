import LiveSocial

/// A change to be logged: what a store's ``ServerStore/appendChange(_:)`` writes.
public struct ChangeRecord: Sendable, Hashable {
    /// The changed record.
    public var key: SocialRecordKey
    /// Whether the record was removed.
    public var isRemoval: Bool
    /// The scope catch-ups read by: `channel:<id>` for a message, else nil.
    public var scope: String?
    /// Whether the write created the record.
    public var isCreation: Bool
    /// For a removal, the channel whose visibility rules the removed record.
    public var channelId: String?

    /// A change to log.
    public init(
        _ key: SocialRecordKey, isRemoval: Bool, scope: String?, isCreation: Bool = false, channelId: String? = nil
    ) {
        self.key = key
        self.isRemoval = isRemoval
        self.scope = scope
        self.isCreation = isCreation
        self.channelId = channelId
    }

    /// The change log scope of a record: its channel for a message, else nil.
    static func scope(of record: SocialRecord) -> String? {
        if case .message(let message) = record { return messageScope(message.channelId) }
        return nil
    }

    /// The change log scope of a channel's messages.
    public static func messageScope(_ channelId: String) -> String { "channel:" + channelId }
}
