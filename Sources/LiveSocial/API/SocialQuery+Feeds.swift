import LiveRepository

extension SocialQuery where Record == Post {
    /// Posts in a user's own feed, newest first.
    public static func userFeed(userId: String, includeDeleted: Bool = false) -> Self {
        Self(kind: .userFeed(userId: userId, includeDeleted: includeDeleted), cacheQuery: CacheQuery(
            [.equals("targetType", .text(FeedTargetType.user.rawValue)), .equals("targetId", .text(userId))]
                + notDeleted(includeDeleted),
            orderBy: "createdAt", ascending: false))
    }

    /// Posts written by a user in any feed, newest first.
    public static func postsByAuthor(_ authorId: String, includeDeleted: Bool = false) -> Self {
        Self(kind: .postsByAuthor(authorId: authorId, includeDeleted: includeDeleted), cacheQuery: CacheQuery(
            [.equals("authorId", .text(authorId))] + notDeleted(includeDeleted),
            orderBy: "createdAt", ascending: false))
    }

    /// Posts in a community's feed, newest first.
    public static func communityFeed(communityId: String, includeDeleted: Bool = false) -> Self {
        Self(kind: .communityFeed(communityId: communityId, includeDeleted: includeDeleted), cacheQuery: CacheQuery(
            [.equals("targetType", .text(FeedTargetType.community.rawValue)), .equals("targetId", .text(communityId))]
                + notDeleted(includeDeleted),
            orderBy: "createdAt", ascending: false))
    }
}

extension SocialQuery where Record == Comment {
    /// Comments of a post: the top-level ones when `parentId` is nil, else the replies to that comment.
    ///
    /// Oldest first by default, as threads read.
    public static func comments(
        postId: String, parentId: String? = nil, newestFirst: Bool = false, includeDeleted: Bool = false
    ) -> Self {
        let parent: CachePredicate = parentId.map { .equals("parentId", .text($0)) } ?? .isNull("parentId")
        return Self(
            kind: .comments(postId: postId, parentId: parentId, newestFirst: newestFirst, includeDeleted: includeDeleted),
            cacheQuery: CacheQuery(
                [.equals("postId", .text(postId)), parent] + notDeleted(includeDeleted),
                orderBy: "createdAt", ascending: !newestFirst))
    }
}

extension SocialQuery where Record == Reaction {
    /// Reactions to a post, comment or message, newest first; only those named `name` when it is given.
    public static func reactions(targetType: ReactionTargetType, targetId: String, name: String? = nil) -> Self {
        var predicates: [CachePredicate] = [
            .equals("targetType", .text(targetType.rawValue)), .equals("targetId", .text(targetId)),
        ]
        if let name { predicates.append(.equals("name", .text(name))) }
        return Self(
            kind: .reactions(targetType: targetType, targetId: targetId, name: name),
            cacheQuery: CacheQuery(predicates, orderBy: "createdAt", ascending: false))
    }
}

extension SocialQuery where Record == Follow {
    /// The follows of `userId` by others, newest first; accepted ones only unless `status` says otherwise.
    ///
    /// - Parameters:
    ///   - userId: the user being followed.
    ///   - status: the status to list, or nil for every status.
    public static func followers(of userId: String, status: FollowStatus? = .accepted) -> Self {
        Self(kind: .followers(userId: userId, status: status), cacheQuery: CacheQuery(
            [.equals("followeeId", .text(userId))] + (status.map { [.equals("status", .text($0.rawValue))] } ?? []),
            orderBy: "createdAt", ascending: false))
    }

    /// The follows by `userId` of others, newest first; accepted ones only unless `status` says otherwise.
    ///
    /// - Parameters:
    ///   - userId: the user who follows.
    ///   - status: the status to list, or nil for every status.
    public static func following(of userId: String, status: FollowStatus? = .accepted) -> Self {
        Self(kind: .following(userId: userId, status: status), cacheQuery: CacheQuery(
            [.equals("followerId", .text(userId))] + (status.map { [.equals("status", .text($0.rawValue))] } ?? []),
            orderBy: "createdAt", ascending: false))
    }
}
