import LiveRepository

/// Reactions on posts, comments and messages.
///
/// Get it from ``SocialClient/reactions``. It is a light view of the client, so there is no need to
/// keep one. Its changes show in the cache at once, then go to the server; they throw
/// ``SocialAPIError`` when the request fails, and the local change is then marked failed or undone.
@MainActor
public struct ReactionRepository {
    let client: SocialClient

    /// The reaction with `id` (see `Reaction.makeID(targetType:targetId:userId:name:)`), live.
    public func get(id: String) -> LiveObject<Reaction> { client.liveObject(Reaction.self, id: id) }

    /// Reactions on one post, comment or message, newest first; only `name` ones when given.
    public func reactions(
        on targetType: ReactionTargetType, targetId: String, name: String? = nil, pageSize: Int = 20
    ) -> LiveCollection<Reaction> {
        client.liveCollection(.reactions(targetType: targetType, targetId: targetId, name: name), pageSize: pageSize)
    }

    /// Adds the signed-in user's reaction: shown at once as `syncing`.
    public func add(_ name: String, to targetType: ReactionTargetType, targetId: String) async throws {
        let id = Reaction.makeID(targetType: targetType, targetId: targetId, userId: client.userId, name: name)
        let local = Reaction(id: id, targetType: targetType, targetId: targetId, userId: client.userId, name: name,
                             createdAt: client.now())
        try await client.mutate(.addReaction(targetType: targetType, targetId: targetId, name: name),
                                local: local, syncState: \.syncState)
    }

    /// Removes the signed-in user's reaction: gone at once, back if the server refuses.
    public func remove(_ name: String, from targetType: ReactionTargetType, targetId: String) async throws {
        let id = Reaction.makeID(targetType: targetType, targetId: targetId, userId: client.userId, name: name)
        try await client.mutate(.removeReaction(targetType: targetType, targetId: targetId, name: name),
                                removingID: id, of: Reaction.self)
    }
}
