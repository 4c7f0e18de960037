import LiveRepository

/// One user's reaction, such as "like", to a post, a comment or a message.
///
/// A user reacts at most once with each name to a target, so the id is deterministic:
/// ``makeID(targetType:targetId:userId:name:)``. Removing a reaction deletes the record.
public struct Reaction: CacheRecord, Hashable {
    /// `targetType:targetId:userId:name`; see ``makeID(targetType:targetId:userId:name:)``.
    public var id: String
    /// What kind of thing the reaction is on.
    public var targetType: ReactionTargetType
    /// The id of the post, comment or message.
    public var targetId: String
    /// The id of the user who reacted.
    public var userId: String
    /// The reaction, such as "like" or "love".
    public var name: String
    /// When the server created it, in seconds since 1970.
    public var createdAt: Double
    /// Where a local change stands with the server; the server's own copies are always `.synced`.
    public var syncState: SyncState

    /// Creates a reaction; see the properties for what each value means.
    public init(
        id: String,
        targetType: ReactionTargetType,
        targetId: String,
        userId: String,
        name: String,
        createdAt: Double,
        syncState: SyncState = .synced
    ) {
        self.id = id
        self.targetType = targetType
        self.targetId = targetId
        self.userId = userId
        self.name = name
        self.createdAt = createdAt
        self.syncState = syncState
    }

    /// The `reactions` table: the one list of its columns, which ``init(row:)`` and ``columnValues``
    /// follow in order (``ColumnReader`` and ``ColumnWriter`` check each against it).
    public static let table = RecordTable(
        name: "reactions",
        columns: [
            .text("id"),
            .text("targetType"),
            .text("targetId"),
            .text("userId"),
            .text("name"),
            .real("createdAt"),
            .text("syncState"),
        ],
        indexes: [["targetType", "targetId", "createdAt"], ["targetType", "targetId", "name", "createdAt"]])

    /// Reads a row of ``table``.
    public init(row: SQLiteRow) throws {
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        targetType = try columns.next()
        targetId = try columns.next()
        userId = try columns.next()
        name = try columns.next()
        createdAt = try columns.next()
        syncState = try columns.next()
        columns.finish()
    }

    /// The values of ``table``'s columns, in order.
    public var columnValues: [SQLiteValue] {
        var values = ColumnWriter(Self.table)
        values.append(id)
        values.append(targetType)
        values.append(targetId)
        values.append(userId)
        values.append(name)
        values.append(createdAt)
        values.append(syncState)
        return values.finish()
    }

    /// The id of the reaction `userId` gives with `name` to a target: `targetType:targetId:userId:name`.
    public static func makeID(targetType: ReactionTargetType, targetId: String, userId: String, name: String) -> String {
        "\(targetType.rawValue):\(targetId):\(userId):\(name)"
    }
}
