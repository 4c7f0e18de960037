import LiveRepository

/// A person using the app: a profile and follow counts.
///
/// The server keeps `followerCount` and `followingCount` up to date as follows come and go.
public struct User: SchemaRecord, Hashable {
    /// The server's id of the user.
    public var id: String
    /// The name shown in the app.
    public var displayName: String
    /// A short self-description; empty when none.
    public var about: String
    /// The address of the avatar image, if any.
    public var avatarURL: String?
    /// How many users follow this user (accepted follows only).
    public var followerCount: Int
    /// How many users this user follows (accepted follows only).
    public var followingCount: Int
    /// When the server created it, in seconds since 1970.
    public var createdAt: Double
    /// When it last changed, in seconds since 1970.
    public var updatedAt: Double
    /// Whether it was deleted. Deletion is soft: the record stays, so "include deleted" lists can show it.
    public var isDeleted: Bool

    /// Creates a user; see the properties for what each value means.
    public init(
        id: String,
        displayName: String,
        about: String = "",
        avatarURL: String? = nil,
        followerCount: Int = 0,
        followingCount: Int = 0,
        createdAt: Double,
        updatedAt: Double,
        isDeleted: Bool = false
    ) {
        self.id = id
        self.displayName = displayName
        self.about = about
        self.avatarURL = avatarURL
        self.followerCount = followerCount
        self.followingCount = followingCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isDeleted = isDeleted
    }

    /// The `users` table: each column and the property it stores, in the order of the
    /// initializer that reads them back.
    public static let schema = RecordSchema(
        "users", indexes: [["displayName"]],
        SchemaColumn("id", \User.id),
        SchemaColumn("displayName", \User.displayName),
        SchemaColumn("about", \User.about),
        SchemaColumn("avatarURL", \User.avatarURL),
        SchemaColumn("followerCount", \User.followerCount),
        SchemaColumn("followingCount", \User.followingCount),
        SchemaColumn("createdAt", \User.createdAt),
        SchemaColumn("updatedAt", \User.updatedAt),
        SchemaColumn("isDeleted", \User.isDeleted),
        make: User.init(id:displayName:about:avatarURL:followerCount:followingCount:createdAt:updatedAt:isDeleted:))

}
