import LiveRepository

/// A user's membership of a community.
///
/// The id is deterministic, ``makeID(communityId:userId:)``. Leaving deletes the record.
public struct CommunityMember: SchemaRecord, Hashable {
    /// `communityId:userId`; see ``makeID(communityId:userId:)``.
    public var id: String
    /// The community.
    public var communityId: String
    /// The member.
    public var userId: String
    /// The member's role.
    public var role: MemberRole
    /// When the user joined, in seconds since 1970.
    public var joinedAt: Double
    /// Where a local change stands with the server; the server's own copies are always `.synced`.
    public var syncState: SyncState

    /// Creates a communityMember; see the properties for what each value means.
    public init(
        id: String,
        communityId: String,
        userId: String,
        role: MemberRole = .member,
        joinedAt: Double,
        syncState: SyncState = .synced
    ) {
        self.id = id
        self.communityId = communityId
        self.userId = userId
        self.role = role
        self.joinedAt = joinedAt
        self.syncState = syncState
    }

    /// The `community_members` table: each column and the property it stores, in the order of the
    /// initializer that reads them back.
    public static let schema = RecordSchema(
        "community_members", indexes: [["communityId", "joinedAt"], ["userId", "joinedAt"]],
        SchemaColumn("id", \CommunityMember.id),
        SchemaColumn("communityId", \CommunityMember.communityId),
        SchemaColumn("userId", \CommunityMember.userId),
        SchemaColumn("role", \CommunityMember.role),
        SchemaColumn("joinedAt", \CommunityMember.joinedAt),
        SchemaColumn("syncState", \CommunityMember.syncState),
        make: CommunityMember.init(id:communityId:userId:role:joinedAt:syncState:))

    /// The id of `userId`'s membership of `communityId`: `communityId:userId`.
    public static func makeID(communityId: String, userId: String) -> String { "\(communityId):\(userId)" }
}
