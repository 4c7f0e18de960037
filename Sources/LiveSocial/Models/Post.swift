import LiveRepository

/// A post in a feed: a community's or a user's.
///
/// `commentCount` counts the post's comments that are not deleted, replies included;
/// `reactionCount` counts its reactions. The server updates both.
public struct Post: CacheRecord, Hashable {
    /// The server's id of the post.
    public var id: String
    /// The id of the user who wrote it.
    public var authorId: String
    /// Which kind of feed it is published in.
    public var targetType: FeedTargetType
    /// The id of the community or user whose feed it is in.
    public var targetId: String
    /// The post's text.
    public var text: String
    /// How many comments it has, replies included, deleted ones excluded.
    public var commentCount: Int
    /// How many reactions it has.
    public var reactionCount: Int
    /// When the server created it, in seconds since 1970.
    public var createdAt: Double
    /// When it last changed, in seconds since 1970.
    public var updatedAt: Double
    /// Whether it was deleted. Deletion is soft: the record stays, so "include deleted" lists can show it.
    public var isDeleted: Bool
    /// Where a local change stands with the server; the server's own copies are always `.synced`.
    public var syncState: SyncState

    /// Creates a post; see the properties for what each value means.
    public init(
        id: String,
        authorId: String,
        targetType: FeedTargetType,
        targetId: String,
        text: String,
        commentCount: Int = 0,
        reactionCount: Int = 0,
        createdAt: Double,
        updatedAt: Double,
        isDeleted: Bool = false,
        syncState: SyncState = .synced
    ) {
        self.id = id
        self.authorId = authorId
        self.targetType = targetType
        self.targetId = targetId
        self.text = text
        self.commentCount = commentCount
        self.reactionCount = reactionCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isDeleted = isDeleted
        self.syncState = syncState
    }

    /// The `posts` table: the one list of its columns, which ``init(row:)`` and ``columnValues``
    /// follow in order (``ColumnReader`` and ``ColumnWriter`` check each against it).
    public static let table = RecordTable(
        name: "posts",
        columns: [
            .text("id"),
            .text("authorId"),
            .text("targetType"),
            .text("targetId"),
            .text("text"),
            .integer("commentCount"),
            .integer("reactionCount"),
            .real("createdAt"),
            .real("updatedAt"),
            .integer("isDeleted"),
            .text("syncState"),
        ],
        indexes: [["targetType", "targetId", "createdAt"], ["authorId", "createdAt"]])

    /// Reads a row of ``table``.
    public init(row: SQLiteRow) throws {
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        authorId = try columns.next()
        targetType = try columns.next()
        targetId = try columns.next()
        text = try columns.next()
        commentCount = try columns.next()
        reactionCount = try columns.next()
        createdAt = try columns.next()
        updatedAt = try columns.next()
        isDeleted = try columns.next()
        syncState = try columns.next()
        columns.finish()
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        var values = ColumnWriter(Self.table)
        values.append(id)
        values.append(authorId)
        values.append(targetType)
        values.append(targetId)
        values.append(text)
        values.append(commentCount)
        values.append(reactionCount)
        values.append(createdAt)
        values.append(updatedAt)
        values.append(isDeleted)
        values.append(syncState)
        return values.finish()
    }

}
