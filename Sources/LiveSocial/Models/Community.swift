import LiveRepository

/// A community: a group with its own feed and members.
///
/// The server keeps `memberCount` and `postCount` (posts not deleted) up to date.
public struct Community: SchemaRecord, Hashable {
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

    /// The `communities` table: each column and the property it stores, in the order of the
    /// initializer that reads them back.
    public static let schema = RecordSchema(
        "communities", indexes: [["displayName"], ["createdAt"]],
        SchemaColumn("id", \Community.id),
        SchemaColumn("displayName", \Community.displayName),
        SchemaColumn("about", \Community.about),
        SchemaColumn("isPublic", \Community.isPublic),
        SchemaColumn("memberCount", \Community.memberCount),
        SchemaColumn("postCount", \Community.postCount),
        SchemaColumn("createdAt", \Community.createdAt),
        SchemaColumn("updatedAt", \Community.updatedAt),
        SchemaColumn("isDeleted", \Community.isDeleted),
        make: Community.init(id:displayName:about:isPublic:memberCount:postCount:createdAt:updatedAt:isDeleted:))

}
