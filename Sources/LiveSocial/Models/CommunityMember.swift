import LiveRepository

/// A user's membership of a community.
///
/// The id is deterministic, ``makeID(communityId:userId:)``. Leaving deletes the record.
public struct CommunityMember: CacheRecord, Hashable {
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

    /// The `community_members` table: the one list of its columns, which ``init(row:)`` and ``columnValues``
    /// follow in order (``ColumnReader`` and ``ColumnWriter`` check each against it).
    public static let table = RecordTable(
        name: "community_members",
        columns: [
            .text("id"),
            .text("communityId"),
            .text("userId"),
            .text("role"),
            .real("joinedAt"),
            .text("syncState"),
        ],
        indexes: [["communityId", "joinedAt"], ["userId", "joinedAt"]])

    /// Reads a row of ``table``.
    public init(row: SQLiteRow) throws {
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        communityId = try columns.next()
        userId = try columns.next()
        role = try columns.next()
        joinedAt = try columns.next()
        syncState = try columns.next()
        columns.finish()
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        var values = ColumnWriter(Self.table)
        values.append(id)
        values.append(communityId)
        values.append(userId)
        values.append(role)
        values.append(joinedAt)
        values.append(syncState)
        return values.finish()
    }

    /// The id of `userId`'s membership of `communityId`: `communityId:userId`.
    public static func makeID(communityId: String, userId: String) -> String { "\(communityId):\(userId)" }
}
