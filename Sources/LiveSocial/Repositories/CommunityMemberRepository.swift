import LiveRepository

/// Members of communities.
///
/// Get it from ``SocialClient/communityMembers``. It is a light view of the client, so there is no
/// need to keep one. Its lists are read-only here: memberships change through
/// ``CommunityRepository``.
@MainActor
public struct CommunityMemberRepository {
    let client: SocialClient

    /// The membership with `id` (see `CommunityMember.makeID(communityId:userId:)`), live.
    public func get(id: String) -> LiveObject<CommunityMember> { client.liveObject(CommunityMember.self, id: id) }

    /// One user's membership of a community, live.
    public func get(communityId: String, userId: String) -> LiveObject<CommunityMember> {
        client.liveObject(CommunityMember.self, id: CommunityMember.makeID(communityId: communityId, userId: userId))
    }

    /// A community's members, earliest joined first; only `roles` ones when given.
    public func members(communityId: String, roles: Set<MemberRole>? = nil, pageSize: Int = 20) -> LiveCollection<CommunityMember> {
        client.liveCollection(.communityMembers(communityId: communityId, roles: roles), pageSize: pageSize)
    }
}
