import LiveRepository

/// A follow relationship: `followerId` follows `followeeId`.
///
/// The id is deterministic, ``makeID(followerId:followeeId:)``. Unfollowing deletes the record.
public struct Follow: SchemaRecord, Hashable {
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

    /// The `follows` table: each column and the property it stores, in the order of the
    /// initializer that reads them back.
    public static let schema = RecordSchema(
        "follows", indexes: [["followerId", "createdAt"], ["followeeId", "createdAt"]],
        SchemaColumn("id", \Follow.id),
        SchemaColumn("followerId", \Follow.followerId),
        SchemaColumn("followeeId", \Follow.followeeId),
        SchemaColumn("status", \Follow.status),
        SchemaColumn("createdAt", \Follow.createdAt),
        SchemaColumn("syncState", \Follow.syncState),
        make: Follow.init(id:followerId:followeeId:status:createdAt:syncState:))

    /// The id of the follow of `followeeId` by `followerId`: `followerId->followeeId`.
    public static func makeID(followerId: String, followeeId: String) -> String {
        "\(followerId)->\(followeeId)"
    }
}
