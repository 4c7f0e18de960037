import LiveRepository

/// A chat channel.
///
/// The server keeps the counts and the last message up to date; `lastActivityAt` is when
/// something last happened in the channel (its creation or its latest message), the key
/// channel lists sort by.
public struct Channel: CacheRecord, Hashable {
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

    /// The `channels` table.
    public static let table = RecordTable(
        name: "channels",
        columns: [
            .text("id"),
            .text("displayName"),
            .text("type"),
            .integer("memberCount"),
            .integer("messageCount"),
            .text("lastMessageText", nullable: true),
            .real("lastMessageAt", nullable: true),
            .real("lastActivityAt"),
            .real("createdAt"),
            .real("updatedAt"),
            .integer("isDeleted"),
        ],
        indexes: [["lastActivityAt"], ["type", "lastActivityAt"]])

    /// Reads a row of ``table``.
    public init(row: SQLiteRow) throws {
        id = row.string(0)
        displayName = row.string(1)
        type = try row.decode(2)
        memberCount = row.int(3)
        messageCount = row.int(4)
        lastMessageText = row.optionalString(5)
        lastMessageAt = row.optionalDouble(6)
        lastActivityAt = row.double(7)
        createdAt = row.double(8)
        updatedAt = row.double(9)
        isDeleted = row.bool(10)
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        [
            .text(id),
            .text(displayName),
            .text(type.rawValue),
            .int(memberCount),
            .int(messageCount),
            .optional(lastMessageText),
            .optional(lastMessageAt),
            .real(lastActivityAt),
            .real(createdAt),
            .real(updatedAt),
            .bool(isDeleted),
        ]
    }
}
