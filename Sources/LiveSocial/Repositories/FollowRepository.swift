import LiveRepository

/// Followers and following.
///
/// Get it from ``SocialClient/follows``. It is a light view of the client, so there is no need to
/// keep one. Its changes show in the cache at once, then go to the server; they throw
/// ``SocialAPIError`` when the request fails, and the local change is then marked failed or undone.
@MainActor
public struct FollowRepository {
    let client: SocialClient

    /// The follow relation with `id` (see `Follow.makeID(followerId:followeeId:)`), live.
    public func get(id: String) -> LiveObject<Follow> { client.liveObject(Follow.self, id: id) }

    /// The follow relation from `followerId` to `followeeId`, live.
    public func get(followerId: String, followeeId: String) -> LiveObject<Follow> {
        client.liveObject(Follow.self, id: Follow.makeID(followerId: followerId, followeeId: followeeId))
    }

    /// The users who follow `userId`, newest first; accepted follows by default.
    public func followers(of userId: String, status: FollowStatus? = .accepted, pageSize: Int = 20) -> LiveCollection<Follow> {
        client.liveCollection(.followers(of: userId, status: status), pageSize: pageSize)
    }

    /// The users `userId` follows, newest first; accepted follows by default.
    public func following(of userId: String, status: FollowStatus? = .accepted, pageSize: Int = 20) -> LiveCollection<Follow> {
        client.liveCollection(.following(of: userId, status: status), pageSize: pageSize)
    }

    /// Follows `userId`: shown at once as `syncing`.
    public func follow(_ userId: String) async throws {
        let local = Follow(id: Follow.makeID(followerId: client.userId, followeeId: userId), followerId: client.userId,
                           followeeId: userId, status: .accepted, createdAt: client.now())
        try await client.mutate(.follow(userId: userId), local: local, syncState: \.syncState)
    }

    /// Stops following `userId`: gone at once, back if the server refuses.
    public func unfollow(_ userId: String) async throws {
        let id = Follow.makeID(followerId: client.userId, followeeId: userId)
        try await client.mutate(.unfollow(userId: userId), removingID: id, of: Follow.self)
    }
}
