/// One post of a feed, as the screen shows it.
public struct PostRow: Sendable, Hashable, Identifiable {
    /// The post's id.
    public var id: String
    /// The author's user id.
    public var author: String
    /// The text.
    public var text: String
    /// How many comments it has.
    public var commentCount: Int
    /// How many reactions it has.
    public var reactionCount: Int
    /// When it was written, in seconds since 1970.
    public var time: Double
    /// Whether a change made here is still on its way to the server.
    public var isSyncing: Bool
    /// Whether the server refused the change made here: the post is not stored.
    public var isFailed: Bool

    /// Creates a row.
    public init(
        id: String, author: String, text: String, commentCount: Int, reactionCount: Int, time: Double,
        isSyncing: Bool = false, isFailed: Bool = false
    ) {
        self.id = id
        self.author = author
        self.text = text
        self.commentCount = commentCount
        self.reactionCount = reactionCount
        self.time = time
        self.isSyncing = isSyncing
        self.isFailed = isFailed
    }
}
