import LiveRepository

/// Comments on posts, and replies to comments.
///
/// Get it from ``SocialClient/comments``. It is a light view of the client, so there is no need to
/// keep one. Its changes show in the cache at once, then go to the server; they throw
/// ``SocialAPIError`` when the request fails, and the local change is then marked failed or undone.
@MainActor
public struct CommentRepository {
    let client: SocialClient

    /// The comment with `id`, live.
    public func get(id: String) -> LiveObject<Comment> { client.liveObject(Comment.self, id: id) }

    /// Comments on a post: top-level ones, or the replies to `parentId`. Oldest first unless
    /// `newestFirst`.
    public func comments(
        postId: String, parentId: String? = nil, newestFirst: Bool = false, includeDeleted: Bool = false,
        pageSize: Int = 20
    ) -> LiveCollection<Comment> {
        client.liveCollection(
            .comments(postId: postId, parentId: parentId, newestFirst: newestFirst, includeDeleted: includeDeleted),
            pageSize: pageSize)
    }

    /// Comments on a post, or replies to the comment `parentId`: shown at once as `syncing`.
    @discardableResult
    public func create(text: String, postId: String, parentId: String? = nil) async throws -> Comment? {
        let now = client.now()
        let local = Comment(id: client.localID(), postId: postId, parentId: parentId, authorId: client.userId,
                            text: text, createdAt: now, updatedAt: now)
        let result = try await client.mutate(
            .createComment(postId: postId, parentId: parentId, text: text), local: local, syncState: \.syncState)
        return result.first(Comment.self)
    }

    /// Changes a comment's text.
    public func update(_ comment: Comment, text: String) async throws {
        var local = comment
        local.text = text
        local.updatedAt = client.now()
        try await client.mutate(.updateComment(id: comment.id, text: text), local: local, syncState: \.syncState)
    }

    /// Deletes a comment (softly).
    public func delete(_ comment: Comment) async throws {
        var local = comment
        local.isDeleted = true
        try await client.mutate(.deleteComment(id: comment.id), local: local, syncState: \.syncState)
    }
}
