import LiveRepository

/// A post in a feed: a community's or a user's.
///
/// `commentCount` counts the post's comments that are not deleted, replies included;
/// `reactionCount` counts its reactions. The server updates both.
public struct Post: SchemaRecord, Hashable {
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

    /// The `posts` table: each column and the property it stores, in the order of the
    /// initializer that reads them back.
    public static let schema = RecordSchema(
        "posts", indexes: [["targetType", "targetId", "createdAt"], ["authorId", "createdAt"]],
        SchemaColumn("id", \Post.id),
        SchemaColumn("authorId", \Post.authorId),
        SchemaColumn("targetType", \Post.targetType),
        SchemaColumn("targetId", \Post.targetId),
        SchemaColumn("text", \Post.text),
        SchemaColumn("commentCount", \Post.commentCount),
        SchemaColumn("reactionCount", \Post.reactionCount),
        SchemaColumn("createdAt", \Post.createdAt),
        SchemaColumn("updatedAt", \Post.updatedAt),
        SchemaColumn("isDeleted", \Post.isDeleted),
        SchemaColumn("syncState", \Post.syncState),
        make: Post.init(id:authorId:targetType:targetId:text:commentCount:reactionCount:createdAt:updatedAt:isDeleted:syncState:))

}
