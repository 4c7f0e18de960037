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

    /// The `communities` table: the one list of its columns, which ``init(row:)`` and ``columnValues``
    /// follow in order (``ColumnReader`` and ``ColumnWriter`` check each against it).
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
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        displayName = try columns.next()
        about = try columns.next()
        isPublic = try columns.next()
        memberCount = try columns.next()
        postCount = try columns.next()
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
        values.append(isPublic)
        values.append(memberCount)
        values.append(postCount)
        values.append(createdAt)
        values.append(updatedAt)
        values.append(isDeleted)
        return values.finish()
    }

}
