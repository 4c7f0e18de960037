/// The head of a profile screen.
public struct ProfileSummary: Sendable, Hashable {
    /// The user's id.
    public var userId: String
    /// The name shown.
    public var displayName: String
    /// The user's own words about themselves.
    public var about: String
    /// How many follow them.
    public var followerCount: Int
    /// How many they follow.
    public var followingCount: Int
    /// Whether this is the signed-in user.
    public var isMe: Bool
    /// Whether the signed-in user follows them.
    public var isFollowed: Bool

    /// Creates a summary.
    public init(
        userId: String, displayName: String, about: String, followerCount: Int, followingCount: Int,
        isMe: Bool, isFollowed: Bool
    ) {
        self.userId = userId
        self.displayName = displayName
        self.about = about
        self.followerCount = followerCount
        self.followingCount = followingCount
        self.isMe = isMe
        self.isFollowed = isFollowed
    }
}
