import LiveRepository

/// A community: a group with its own feed and members.
///
/// The server keeps `memberCount` and `postCount` (posts not deleted) up to date.
public struct Community: CacheRecord, Hashable {
    /// The server's id of the community.
    public var id: String
    /// The name shown in the app.
    public var displayName: String
    /// A short description; empty when none.
    public var about: String
    /// Whether anyone can find and join it.
    public var isPublic: Bool
    /// How many members it has.
    public var memberCount: Int
    /// How many posts its feed has, deleted ones excluded.
    public var postCount: Int
    /// When the server created it, in seconds since 1970.
    public var createdAt: Double
    /// When it last changed, in seconds since 1970.
    public var updatedAt: Double
    /// Whether it was deleted. Deletion is soft: the record stays, so "include deleted" lists can show it.
    public var isDeleted: Bool

    /// Creates a community; see the properties for what each value means.
    public init(
        id: String,
        displayName: String,
        about: String = "",
        isPublic: Bool = true,
        memberCount: Int = 0,
        postCount: Int = 0,
        createdAt: Double,
        updatedAt: Double,
        isDeleted: Bool = false
    ) {
        self.id = id
        self.displayName = displayName
        self.about = about
        self.isPublic = isPublic
        self.memberCount = memberCount
        self.postCount = postCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isDeleted = isDeleted
    }

    /// The `communities` table.
    public static let table = RecordTable(
        name: "communities",
        columns: [
            .text("id"),
            .text("displayName"),
            .text("about"),
            .integer("isPublic"),
            .integer("memberCount"),
            .integer("postCount"),
            .real("createdAt"),
            .real("updatedAt"),
            .integer("isDeleted"),
        ],
        indexes: [["displayName"], ["createdAt"]])

    /// Reads a row of ``table``.
    public init(row: SQLiteRow) throws {
        id = row.string(0)
        displayName = row.string(1)
        about = row.string(2)
        isPublic = row.bool(3)
        memberCount = row.int(4)
        postCount = row.int(5)
        createdAt = row.double(6)
        updatedAt = row.double(7)
        isDeleted = row.bool(8)
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        [
            .text(id),
            .text(displayName),
            .text(about),
            .bool(isPublic),
            .int(memberCount),
            .int(postCount),
            .real(createdAt),
            .real(updatedAt),
            .bool(isDeleted),
        ]
    }
}
