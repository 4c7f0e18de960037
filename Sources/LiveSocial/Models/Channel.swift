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

    /// The `channels` table: the one list of its columns, which ``init(row:)`` and ``columnValues``
    /// follow in order (``ColumnReader`` and ``ColumnWriter`` check each against it).
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
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        displayName = try columns.next()
        type = try columns.next()
        memberCount = try columns.next()
        messageCount = try columns.next()
        lastMessageText = try columns.next()
        lastMessageAt = try columns.next()
        lastActivityAt = try columns.next()
        createdAt = try columns.next()
        updatedAt = try columns.next()
        isDeleted = try columns.next()
        columns.finish()
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        var values = ColumnWriter(Self.table)
        values.append(id)
        values.append(displayName)
        values.append(type)
        values.append(memberCount)
        values.append(messageCount)
        values.append(lastMessageText)
        values.append(lastMessageAt)
        values.append(lastActivityAt)
        values.append(createdAt)
        values.append(updatedAt)
        values.append(isDeleted)
        return values.finish()
    }

}
