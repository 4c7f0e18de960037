/// One comment under a post, as the screen shows it.
public struct CommentRow: Sendable, Hashable, Identifiable {
    /// The comment's id.
    public var id: String
    /// The author's user id.
    public var author: String
    /// The text.
    public var text: String
    /// Whether it answers another comment.
    public var isReply: Bool
    /// Whether it is still on its way to the server.
    public var isSyncing: Bool

    /// Creates a row.
    public init(id: String, author: String, text: String, isReply: Bool, isSyncing: Bool = false) {
        self.id = id
        self.author = author
        self.text = text
        self.isReply = isReply
        self.isSyncing = isSyncing
    }
}
