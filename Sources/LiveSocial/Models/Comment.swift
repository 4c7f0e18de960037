import LiveRepository

/// A comment on a post, or a reply to a comment.
///
/// Top-level comments have a nil `parentId`; a reply's `parentId` is the comment it answers.
/// `replyCount` counts a comment's replies that are not deleted.
public struct Comment: SchemaRecord, Hashable {
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

    /// The `comments` table: each column and the property it stores, in the order of the
    /// initializer that reads them back.
    public static let schema = RecordSchema(
        "comments", indexes: [["postId", "parentId", "createdAt"]],
        SchemaColumn("id", \Comment.id),
        SchemaColumn("postId", \Comment.postId),
        SchemaColumn("parentId", \Comment.parentId),
        SchemaColumn("authorId", \Comment.authorId),
        SchemaColumn("text", \Comment.text),
        SchemaColumn("replyCount", \Comment.replyCount),
        SchemaColumn("reactionCount", \Comment.reactionCount),
        SchemaColumn("createdAt", \Comment.createdAt),
        SchemaColumn("updatedAt", \Comment.updatedAt),
        SchemaColumn("isDeleted", \Comment.isDeleted),
        SchemaColumn("syncState", \Comment.syncState),
        make: Comment.init(id:postId:parentId:authorId:text:replyCount:reactionCount:createdAt:updatedAt:isDeleted:syncState:))

}
