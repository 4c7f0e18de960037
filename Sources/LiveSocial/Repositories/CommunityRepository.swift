import LiveRepository

/// Communities, and joining and leaving them.
///
/// Get it from ``SocialClient/communities``. It is a light view of the client, so there is no need
/// to keep one. Its changes show in the cache at once, then go to the server; they throw
/// ``SocialAPIError`` when the request fails, and the local change is then marked failed or undone.
@MainActor
public struct CommunityRepository {
    let client: SocialClient

    /// The community with `id`, live.
    public func get(id: String) -> LiveObject<Community> { client.liveObject(Community.self, id: id) }

    /// Communities, by name or newest first; public ones only when `publicOnly`.
    public func communities(
        publicOnly: Bool = false, includeDeleted: Bool = false, sortedBy order: CommunitySortOrder = .displayName,
        pageSize: Int = 20
    ) -> LiveCollection<Community> {
        client.liveCollection(.communities(publicOnly: publicOnly, includeDeleted: includeDeleted, sortedBy: order),
                              pageSize: pageSize)
    }

    /// Joins a community: the membership shows at once as `syncing`.
    public func join(_ communityId: String) async throws {
        let local = CommunityMember(id: CommunityMember.makeID(communityId: communityId, userId: client.userId),
                                    communityId: communityId, userId: client.userId, joinedAt: client.now())
        try await client.mutate(.joinCommunity(id: communityId), local: local, syncState: \.syncState)
    }

    /// Leaves a community: the membership is gone at once, back if the server refuses.
    public func leave(_ communityId: String) async throws {
        let id = CommunityMember.makeID(communityId: communityId, userId: client.userId)
        try await client.mutate(.leaveCommunity(id: communityId), removingID: id, of: CommunityMember.self)
    }
}
