import LiveRepository

/// A user's membership of a channel.
///
/// The id is deterministic, ``makeID(channelId:userId:)``. Leaving a channel deletes the record.
public struct ChannelMember: CacheRecord, Hashable {
    /// `channelId:userId`; see ``makeID(channelId:userId:)``.
    public var id: String
    /// The channel.
    public var channelId: String
    /// The member.
    public var userId: String
    /// The member's role.
    public var role: MemberRole
    /// Whether the member is in good standing or banned.
    public var membership: Membership
    /// When the user joined, in seconds since 1970.
    public var joinedAt: Double
    /// Where a local change stands with the server; the server's own copies are always `.synced`.
    public var syncState: SyncState

    /// Creates a channelMember; see the properties for what each value means.
    public init(
        id: String,
        channelId: String,
        userId: String,
        role: MemberRole = .member,
        membership: Membership = .member,
        joinedAt: Double,
        syncState: SyncState = .synced
    ) {
        self.id = id
        self.channelId = channelId
        self.userId = userId
        self.role = role
        self.membership = membership
        self.joinedAt = joinedAt
        self.syncState = syncState
    }

    /// The `channel_members` table: the one list of its columns, which ``init(row:)`` and ``columnValues``
    /// follow in order (``ColumnReader`` and ``ColumnWriter`` check each against it).
    public static let table = RecordTable(
        name: "channel_members",
        columns: [
            .text("id"),
            .text("channelId"),
            .text("userId"),
            .text("role"),
            .text("membership"),
            .real("joinedAt"),
            .text("syncState"),
        ],
        indexes: [["channelId", "joinedAt"], ["userId", "joinedAt"]])

    /// Reads a row of ``table``.
    public init(row: SQLiteRow) throws {
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        channelId = try columns.next()
        userId = try columns.next()
        role = try columns.next()
        membership = try columns.next()
        joinedAt = try columns.next()
        syncState = try columns.next()
        columns.finish()
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        var values = ColumnWriter(Self.table)
        values.append(id)
        values.append(channelId)
        values.append(userId)
        values.append(role)
        values.append(membership)
        values.append(joinedAt)
        values.append(syncState)
        return values.finish()
    }

    /// The id of `userId`'s membership of `channelId`: `channelId:userId`.
    public static func makeID(channelId: String, userId: String) -> String { "\(channelId):\(userId)" }
}
