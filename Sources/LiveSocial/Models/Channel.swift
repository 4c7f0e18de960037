import LiveRepository

/// A chat channel.
///
/// The server keeps the counts and the last message up to date; `lastActivityAt` is when
/// something last happened in the channel (its creation or its latest message), the key
/// channel lists sort by.
public struct Channel: SchemaRecord, Hashable {
    /// The server's id of the channel.
    public var id: String
    /// The name shown in the app.
    public var displayName: String
    /// The kind of channel.
    public var type: ChannelType
    /// How many members it has.
    public var memberCount: Int
    /// How many messages it has, deleted ones excluded.
    public var messageCount: Int
    /// The text of the latest message that is not deleted, if any.
    public var lastMessageText: String?
    /// When the latest message that is not deleted was sent, if any.
    public var lastMessageAt: Double?
    /// When something last happened in the channel, in seconds since 1970.
    public var lastActivityAt: Double
    /// When the server created it, in seconds since 1970.
    public var createdAt: Double
    /// When it last changed, in seconds since 1970.
    public var updatedAt: Double
    /// Whether it was deleted. Deletion is soft: the record stays, so "include deleted" lists can show it.
    public var isDeleted: Bool

    /// Creates a channel; see the properties for what each value means.
    public init(
        id: String,
        displayName: String,
        type: ChannelType,
        memberCount: Int = 0,
        messageCount: Int = 0,
        lastMessageText: String? = nil,
        lastMessageAt: Double? = nil,
        lastActivityAt: Double,
        createdAt: Double,
        updatedAt: Double,
        isDeleted: Bool = false
    ) {
        self.id = id
        self.displayName = displayName
        self.type = type
        self.memberCount = memberCount
        self.messageCount = messageCount
        self.lastMessageText = lastMessageText
        self.lastMessageAt = lastMessageAt
        self.lastActivityAt = lastActivityAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isDeleted = isDeleted
    }

    /// The `channels` table: each column and the property it stores, in the order of the
    /// initializer that reads them back.
    public static let schema = RecordSchema(
        "channels", indexes: [["lastActivityAt"], ["type", "lastActivityAt"]],
        SchemaColumn("id", \Channel.id),
        SchemaColumn("displayName", \Channel.displayName),
        SchemaColumn("type", \Channel.type),
        SchemaColumn("memberCount", \Channel.memberCount),
        SchemaColumn("messageCount", \Channel.messageCount),
        SchemaColumn("lastMessageText", \Channel.lastMessageText),
        SchemaColumn("lastMessageAt", \Channel.lastMessageAt),
        SchemaColumn("lastActivityAt", \Channel.lastActivityAt),
        SchemaColumn("createdAt", \Channel.createdAt),
        SchemaColumn("updatedAt", \Channel.updatedAt),
        SchemaColumn("isDeleted", \Channel.isDeleted),
        make: Channel.init(id:displayName:type:memberCount:messageCount:lastMessageText:lastMessageAt:lastActivityAt:createdAt:updatedAt:isDeleted:))

}
