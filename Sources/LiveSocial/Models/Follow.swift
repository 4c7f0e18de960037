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

    /// The `follows` table: the one list of its columns, which ``init(row:)`` and ``columnValues``
    /// follow in order (``ColumnReader`` and ``ColumnWriter`` check each against it).
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
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        followerId = try columns.next()
        followeeId = try columns.next()
        status = try columns.next()
        createdAt = try columns.next()
        syncState = try columns.next()
        columns.finish()
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        var values = ColumnWriter(Self.table)
        values.append(id)
        values.append(followerId)
        values.append(followeeId)
        values.append(status)
        values.append(createdAt)
        values.append(syncState)
        return values.finish()
    }

    /// The id of the follow of `followeeId` by `followerId`: `followerId->followeeId`.
    public static func makeID(followerId: String, followeeId: String) -> String {
        "\(followerId)->\(followeeId)"
    }
}
