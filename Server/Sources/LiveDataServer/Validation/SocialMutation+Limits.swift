import LiveSocial

extension SocialMutation {
    /// The ids a mutation names (and reaction names), for the server's length checks.
    var mentionedIds: [String] {
        switch self {
        case .createPost(_, let targetId, _): [targetId]
        case .updatePost(let id, _), .deletePost(let id), .updateComment(let id, _), .deleteComment(let id): [id]
        case .createComment(let postId, let parentId, _): [postId] + (parentId.map { [$0] } ?? [])
        case .addReaction(_, let targetId, let name), .removeReaction(_, let targetId, let name): [targetId, name]
        case .follow(let userId), .unfollow(let userId): [userId]
        case .sendMessage(let channelId, let clientRequestId, _, _, let parentId, _):
            [channelId, clientRequestId] + (parentId.map { [$0] } ?? [])
        case .editMessage(let id, _), .deleteMessage(let id): [id]
        case .joinChannel(let id), .leaveChannel(let id), .joinCommunity(let id), .leaveCommunity(let id): [id]
        case .updateUser: []
        }
    }

    /// The texts a mutation carries (a post, a comment, a message and its meta arrays, a profile),
    /// for the server's length checks.
    var texts: [String] {
        switch self {
        case .createPost(_, _, let text), .updatePost(_, let text), .createComment(_, _, let text),
             .updateComment(_, let text), .editMessage(_, let text):
            [text]
        case .sendMessage(_, _, _, let text, _, let metaArrays):
            [text] + metaArrays.keys + metaArrays.values.flatMap { $0 }
        case .updateUser(let displayName, let about, let avatarURL):
            [displayName, about, avatarURL].compactMap { $0 }
        case .deletePost, .deleteComment, .addReaction, .removeReaction, .follow, .unfollow, .deleteMessage,
             .joinChannel, .leaveChannel, .joinCommunity, .leaveCommunity:
            []
        }
    }
}
