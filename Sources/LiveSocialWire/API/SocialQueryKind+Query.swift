import LiveRepository
import LiveSocial

extension SocialQueryKind {
    /// The kind of the records the query lists: the model a server answers it with.
    public var recordKind: SocialRecordKind {
        switch self {
        case .userFeed, .postsByAuthor, .communityFeed: .post
        case .comments: .comment
        case .reactions: .reaction
        case .followers, .following: .follow
        case .channels: .channel
        case .messages: .message
        case .channelMembers: .channelMember
        case .communities: .community
        case .communityMembers: .communityMember
        }
    }

    /// The full query of this kind, made with the `SocialQuery` factory of its kind (so its cache
    /// query is the one a client would make), or nil when `Record` is not the kind's model
    /// (see ``recordKind``).
    public func query<Record: CacheRecord>(of type: Record.Type) -> SocialQuery<Record>? {
        let query: Any = switch self {
        case .userFeed(let userId, let includeDeleted): SocialQuery.userFeed(userId: userId, includeDeleted: includeDeleted)
        case .postsByAuthor(let authorId, let includeDeleted): SocialQuery.postsByAuthor(authorId, includeDeleted: includeDeleted)
        case .communityFeed(let communityId, let includeDeleted):
            SocialQuery.communityFeed(communityId: communityId, includeDeleted: includeDeleted)
        case .comments(let postId, let parentId, let newestFirst, let includeDeleted):
            SocialQuery.comments(postId: postId, parentId: parentId, newestFirst: newestFirst, includeDeleted: includeDeleted)
        case .reactions(let targetType, let targetId, let name):
            SocialQuery.reactions(targetType: targetType, targetId: targetId, name: name)
        case .followers(let userId, let status): SocialQuery.followers(of: userId, status: status)
        case .following(let userId, let status): SocialQuery.following(of: userId, status: status)
        case .channels(let types, let includeDeleted): SocialQuery.channels(types: types, includeDeleted: includeDeleted)
        case .messages(let channelId, let types, let senderIds, let includeDeleted, let newestFirst):
            SocialQuery.messages(
                channelId: channelId, types: types, senderIds: senderIds, includeDeleted: includeDeleted, newestFirst: newestFirst)
        case .channelMembers(let channelId, let roles, let memberships):
            SocialQuery.channelMembers(channelId: channelId, roles: roles, memberships: memberships)
        case .communities(let publicOnly, let includeDeleted, let order):
            SocialQuery.communities(publicOnly: publicOnly, includeDeleted: includeDeleted, sortedBy: order)
        case .communityMembers(let communityId, let roles): SocialQuery.communityMembers(communityId: communityId, roles: roles)
        }
        return query as? SocialQuery<Record>
    }
}
