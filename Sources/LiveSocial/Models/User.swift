import LiveRepository

/// A person using the app: a profile and follow counts.
///
/// The server keeps `followerCount` and `followingCount` up to date as follows come and go.
public struct User: CacheRecord, Hashable {
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

    /// The `users` table: the one list of its columns, which ``init(row:)`` and ``columnValues``
    /// follow in order (``ColumnReader`` and ``ColumnWriter`` check each against it).
    public static let table = RecordTable(
        name: "users",
        columns: [
            .text("id"),
            .text("displayName"),
            .text("about"),
            .text("avatarURL", nullable: true),
            .integer("followerCount"),
            .integer("followingCount"),
            .real("createdAt"),
            .real("updatedAt"),
            .integer("isDeleted"),
        ],
        indexes: [["displayName"]])

    /// Reads a row of ``table``.
    public init(row: SQLiteRow) throws {
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        displayName = try columns.next()
        about = try columns.next()
        avatarURL = try columns.next()
        followerCount = try columns.next()
        followingCount = try columns.next()
        createdAt = try columns.next()
        updatedAt = try columns.next()
        isDeleted = try columns.next()
        columns.finish()
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        var values = ColumnWriter(Self.table)
        values.append(id)
        values.append(displayName)
        values.append(about)
        values.append(avatarURL)
        values.append(followerCount)
        values.append(followingCount)
        values.append(createdAt)
        values.append(updatedAt)
        values.append(isDeleted)
        return values.finish()
    }

}
