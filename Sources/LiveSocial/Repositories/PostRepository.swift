import LiveRepository

/// Posts: user and community feeds, and the signed-in user's posts.
///
/// Get it from ``SocialClient/posts``. It is a light view of the client, so there is no need to
/// keep one. Its changes show in the cache at once, then go to the server; they throw
/// ``SocialAPIError`` when the request fails, and the local change is then marked failed or undone.
@MainActor
public struct PostRepository {
    let client: SocialClient

    /// The post with `id`, live.
    public func get(id: String) -> LiveObject<Post> { client.liveObject(Post.self, id: id) }

    /// Posts on a user's feed, newest first.
    public func userFeed(userId: String, includeDeleted: Bool = false, pageSize: Int = 20) -> LiveCollection<Post> {
        client.liveCollection(.userFeed(userId: userId, includeDeleted: includeDeleted), pageSize: pageSize)
    }

    /// Posts written by a user, newest first.
    public func posts(byAuthor authorId: String, includeDeleted: Bool = false, pageSize: Int = 20) -> LiveCollection<Post> {
        client.liveCollection(.postsByAuthor(authorId, includeDeleted: includeDeleted), pageSize: pageSize)
    }

    /// Posts on a community's feed, newest first.
    public func communityFeed(communityId: String, includeDeleted: Bool = false, pageSize: Int = 20) -> LiveCollection<Post> {
        client.liveCollection(.communityFeed(communityId: communityId, includeDeleted: includeDeleted), pageSize: pageSize)
    }

    /// Posts `text` to a feed. The post shows at once as `syncing`, then becomes the server's
    /// post (`synced`), or stays with `error` if the server refuses (the error is thrown).
    @discardableResult
    public func create(text: String, in targetType: FeedTargetType, targetId: String) async throws -> Post? {
        let now = client.now()
        let local = Post(id: client.localID(), authorId: client.userId, targetType: targetType, targetId: targetId,
                         text: text, createdAt: now, updatedAt: now)
        let result = try await client.mutate(
            .createPost(targetType: targetType, targetId: targetId, text: text), local: local, syncState: \.syncState)
        return result.first(Post.self)
    }

    /// Changes a post's text: shown at once as `syncing`, then reconciled with the server.
    public func update(_ post: Post, text: String) async throws {
        var local = post
        local.text = text
        local.updatedAt = client.now()
        try await client.mutate(.updatePost(id: post.id, text: text), local: local, syncState: \.syncState)
    }

    /// Deletes a post (softly, as the server does): hidden at once from feeds that exclude
    /// deleted posts, then confirmed by the server.
    public func delete(_ post: Post) async throws {
        var local = post
        local.isDeleted = true
        try await client.mutate(.deletePost(id: post.id), local: local, syncState: \.syncState)
    }
}
