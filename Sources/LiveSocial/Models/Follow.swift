import LiveRepository

/// A follow relationship: `followerId` follows `followeeId`.
///
/// The id is deterministic, ``makeID(followerId:followeeId:)``. Unfollowing deletes the record.
public struct Follow: CacheRecord, Hashable {
    /// `followerId->followeeId`; see ``makeID(followerId:followeeId:)``.
    public var id: String
    /// The user who follows.
    public var followerId: String
    /// The user who is followed.
    public var followeeId: String
    /// Whether the follow is in effect.
    public var status: FollowStatus
    /// When the server created it, in seconds since 1970.
    public var createdAt: Double
    /// Where a local change stands with the server; the server's own copies are always `.synced`.
    public var syncState: SyncState

    /// Creates a follow; see the properties for what each value means.
    public init(
        id: String,
        followerId: String,
        followeeId: String,
        status: FollowStatus = .accepted,
        createdAt: Double,
        syncState: SyncState = .synced
    ) {
        self.id = id
        self.followerId = followerId
        self.followeeId = followeeId
        self.status = status
        self.createdAt = createdAt
        self.syncState = syncState
    }

    /// The `follows` table.
    public static let table = RecordTable(
        name: "follows",
        columns: [
            .text("id"),
            .text("followerId"),
            .text("followeeId"),
            .text("status"),
            .real("createdAt"),
            .text("syncState"),
        ],
        indexes: [["followerId", "createdAt"], ["followeeId", "createdAt"]])

    /// Reads a row of ``table``.
    public init(row: SQLiteRow) throws {
        id = row.string(0)
        followerId = row.string(1)
        followeeId = row.string(2)
        status = try row.decode(3)
        createdAt = row.double(4)
        syncState = try row.decode(5)
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        [
            .text(id),
            .text(followerId),
            .text(followeeId),
            .text(status.rawValue),
            .real(createdAt),
            .text(syncState.rawValue),
        ]
    }

    /// The id of the follow of `followeeId` by `followerId`: `followerId->followeeId`.
    public static func makeID(followerId: String, followeeId: String) -> String {
        "\(followerId)->\(followeeId)"
    }
}
