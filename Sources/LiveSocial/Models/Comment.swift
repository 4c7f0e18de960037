import LiveRepository

/// A comment on a post, or a reply to a comment.
///
/// Top-level comments have a nil `parentId`; a reply's `parentId` is the comment it answers.
/// `replyCount` counts a comment's replies that are not deleted.
public struct Comment: CacheRecord, Hashable {
    /// The server's id of the comment.
    public var id: String
    /// The id of the post the comment belongs to.
    public var postId: String
    /// The comment this one replies to, or nil for a top-level comment.
    public var parentId: String?
    /// The id of the user who wrote it.
    public var authorId: String
    /// The comment's text.
    public var text: String
    /// How many replies it has, deleted ones excluded.
    public var replyCount: Int
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

    /// Creates a comment; see the properties for what each value means.
    public init(
        id: String,
        postId: String,
        parentId: String? = nil,
        authorId: String,
        text: String,
        replyCount: Int = 0,
        reactionCount: Int = 0,
        createdAt: Double,
        updatedAt: Double,
        isDeleted: Bool = false,
        syncState: SyncState = .synced
    ) {
        self.id = id
        self.postId = postId
        self.parentId = parentId
        self.authorId = authorId
        self.text = text
        self.replyCount = replyCount
        self.reactionCount = reactionCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isDeleted = isDeleted
        self.syncState = syncState
    }

    /// The `comments` table: the one list of its columns, which ``init(row:)`` and ``columnValues``
    /// follow in order (``ColumnReader`` and ``ColumnWriter`` check each against it).
    public static let table = RecordTable(
        name: "comments",
        columns: [
            .text("id"),
            .text("postId"),
            .text("parentId", nullable: true),
            .text("authorId"),
            .text("text"),
            .integer("replyCount"),
            .integer("reactionCount"),
            .real("createdAt"),
            .real("updatedAt"),
            .integer("isDeleted"),
            .text("syncState"),
        ],
        indexes: [["postId", "parentId", "createdAt"]])

    /// Reads a row of ``table``.
    public init(row: SQLiteRow) throws {
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        postId = try columns.next()
        parentId = try columns.next()
        authorId = try columns.next()
        text = try columns.next()
        replyCount = try columns.next()
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
        values.append(postId)
        values.append(parentId)
        values.append(authorId)
        values.append(text)
        values.append(replyCount)
        values.append(reactionCount)
        values.append(createdAt)
        values.append(updatedAt)
        values.append(isDeleted)
        values.append(syncState)
        return values.finish()
    }

}
