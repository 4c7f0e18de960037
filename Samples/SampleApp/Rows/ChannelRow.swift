/// One line of the channel list.
public struct ChannelRow: Sendable, Hashable, Identifiable {
    /// The channel's id.
    public var id: String
    /// The channel's name.
    public var name: String
    /// Messages the user has not seen yet.
    public var unreadCount: Int
    /// The newest message's text, if any.
    public var lastMessage: String?
    /// When the channel was last active, in seconds since 1970.
    public var lastActivityAt: Double

    /// Creates a row.
    public init(id: String, name: String, unreadCount: Int, lastMessage: String?, lastActivityAt: Double) {
        self.id = id
        self.name = name
        self.unreadCount = unreadCount
        self.lastMessage = lastMessage
        self.lastActivityAt = lastActivityAt
    }
}
