import LiveRepository

/// One user's reaction, such as "like", to a post, a comment or a message.
///
/// A user reacts at most once with each name to a target, so the id is deterministic:
/// ``makeID(targetType:targetId:userId:name:)``. Removing a reaction deletes the record.
public struct Reaction: SchemaRecord, Hashable {
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

    /// The `reactions` table: each column and the property it stores, in the order of the
    /// initializer that reads them back.
    public static let schema = RecordSchema(
        "reactions", indexes: [["targetType", "targetId", "createdAt"], ["targetType", "targetId", "name", "createdAt"]],
        SchemaColumn("id", \Reaction.id),
        SchemaColumn("targetType", \Reaction.targetType),
        SchemaColumn("targetId", \Reaction.targetId),
        SchemaColumn("userId", \Reaction.userId),
        SchemaColumn("name", \Reaction.name),
        SchemaColumn("createdAt", \Reaction.createdAt),
        SchemaColumn("syncState", \Reaction.syncState),
        make: Reaction.init(id:targetType:targetId:userId:name:createdAt:syncState:))

    /// The id of the reaction `userId` gives with `name` to a target: `targetType:targetId:userId:name`.
    public static func makeID(targetType: ReactionTargetType, targetId: String, userId: String, name: String) -> String {
        "\(targetType.rawValue):\(targetId):\(userId):\(name)"
    }
}
