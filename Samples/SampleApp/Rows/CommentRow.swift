/// One top-level comment under a post, as the screen shows it.
public struct CommentRow: Sendable, Hashable, Identifiable {
    /// The comment's id.
    public var id: String
    /// The author's user id.
    public var author: String
    /// The text.
    public var text: String
    /// How many replies answer it.
    public var replyCount: Int
    /// Whether it is still on its way to the server.
    public var isSyncing: Bool
    /// Whether the server refused it: it is not stored.
    public var isFailed: Bool

    /// Creates a row.
    public init(id: String, author: String, text: String, replyCount: Int = 0, isSyncing: Bool = false, isFailed: Bool = false) {
        self.id = id
        self.author = author
        self.text = text
        self.replyCount = replyCount
        self.isSyncing = isSyncing
        self.isFailed = isFailed
    }
}
