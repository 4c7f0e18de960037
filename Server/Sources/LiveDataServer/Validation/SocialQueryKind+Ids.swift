import LiveSocial

extension SocialQueryKind {
    /// The ids (and names) a query names, for the server's length checks.
    var mentionedIds: [String] {
        switch self {
        case .userFeed(let userId, _), .postsByAuthor(let userId, _): [userId]
        case .communityFeed(let communityId, _), .communityMembers(let communityId, _): [communityId]
        case .comments(let postId, let parentId, _, _): [postId] + (parentId.map { [$0] } ?? [])
        case .reactions(_, let targetId, let name): [targetId] + (name.map { [$0] } ?? [])
        case .followers(let userId, _), .following(let userId, _): [userId]
        case .channels, .communities: []
        case .messages(let channelId, _, let senderIds, _, _): [channelId] + (senderIds.map(Array.init) ?? [])
        case .channelMembers(let channelId, _, _): [channelId]
        }
    }
}
