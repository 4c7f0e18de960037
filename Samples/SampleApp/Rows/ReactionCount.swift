/// How many people reacted to a post with one reaction name, and whether the user is one of them.
public struct ReactionCount: Sendable, Hashable, Identifiable {
    /// The reaction's name, such as `like`.
    public var name: String
    /// How many reacted with it.
    public var count: Int
    /// Whether the signed-in user did.
    public var isMine: Bool

    /// The name: one count per name.
    public var id: String { name }

    /// Creates a count.
    public init(name: String, count: Int, isMine: Bool) {
        self.name = name
        self.count = count
        self.isMine = isMine
    }
}
