import LiveRepository

/// A user's membership of a channel.
///
/// The id is deterministic, ``makeID(channelId:userId:)``. Leaving a channel deletes the record.
public struct ChannelMember: SchemaRecord, Hashable {
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

    /// The `channel_members` table: each column and the property it stores, in the order of the
    /// initializer that reads them back.
    public static let schema = RecordSchema(
        "channel_members", indexes: [["channelId", "joinedAt"], ["userId", "joinedAt"]],
        SchemaColumn("id", \ChannelMember.id),
        SchemaColumn("channelId", \ChannelMember.channelId),
        SchemaColumn("userId", \ChannelMember.userId),
        SchemaColumn("role", \ChannelMember.role),
        SchemaColumn("membership", \ChannelMember.membership),
        SchemaColumn("joinedAt", \ChannelMember.joinedAt),
        SchemaColumn("syncState", \ChannelMember.syncState),
        make: ChannelMember.init(id:channelId:userId:role:membership:joinedAt:syncState:))

    /// The id of `userId`'s membership of `channelId`: `channelId:userId`.
    public static func makeID(channelId: String, userId: String) -> String { "\(channelId):\(userId)" }
}
