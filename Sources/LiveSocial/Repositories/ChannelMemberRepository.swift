import LiveRepository

/// Members of chat channels.
///
/// Get it from ``SocialClient/channelMembers``. It is a light view of the client, so there is no
/// need to keep one. Its lists are read-only here: memberships change through
/// ``ChannelRepository``.
@MainActor
public struct ChannelMemberRepository {
    let client: SocialClient

    /// The membership with `id` (see `ChannelMember.makeID(channelId:userId:)`), live.
    public func get(id: String) -> LiveObject<ChannelMember> { client.liveObject(ChannelMember.self, id: id) }

    /// One user's membership of a channel, live.
    public func get(channelId: String, userId: String) -> LiveObject<ChannelMember> {
        client.liveObject(ChannelMember.self, id: ChannelMember.makeID(channelId: channelId, userId: userId))
    }

    /// A channel's members, earliest joined first; only `roles` and `memberships` ones when given
    /// (current members by default; pass nil for banned ones too).
    public func members(
        channelId: String, roles: Set<MemberRole>? = nil, memberships: Set<Membership>? = [.member], pageSize: Int = 20
    ) -> LiveCollection<ChannelMember> {
        client.liveCollection(.channelMembers(channelId: channelId, roles: roles, memberships: memberships), pageSize: pageSize)
    }
}
