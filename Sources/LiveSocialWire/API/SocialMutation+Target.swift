import LiveSocial

extension SocialMutation {
    /// The record the mutation acts on, which must exist: a server answers `not_found` with this
    /// key when it does not, and a client reports it as `SocialAPIError.notFound`. Nil for a
    /// change of the user's own profile.
    ///
    /// The post of a new comment, the target of a reaction, the followed user, the channel of a
    /// message sent, the feed's community or user of a new post, and otherwise the record the
    /// id names.
    public var targetKey: SocialRecordKey? {
        switch self {
        case .createPost(let targetType, let targetId, _):
            SocialRecordKey(targetType == .community ? .community : .user, targetId)
        case .updatePost(let id, _), .deletePost(let id): SocialRecordKey(.post, id)
        case .createComment(let postId, _, _): SocialRecordKey(.post, postId)
        case .updateComment(let id, _), .deleteComment(let id): SocialRecordKey(.comment, id)
        case .addReaction(let targetType, let targetId, _), .removeReaction(let targetType, let targetId, _):
            SocialRecordKey(Self.kind(of: targetType), targetId)
        case .follow(let userId), .unfollow(let userId): SocialRecordKey(.user, userId)
        case .sendMessage(let channelId, _, _, _, _, _): SocialRecordKey(.channel, channelId)
        case .editMessage(let id, _), .deleteMessage(let id): SocialRecordKey(.message, id)
        case .joinChannel(let id), .leaveChannel(let id): SocialRecordKey(.channel, id)
        case .joinCommunity(let id), .leaveCommunity(let id): SocialRecordKey(.community, id)
        case .updateUser: nil
        }
    }

    private static func kind(of target: ReactionTargetType) -> SocialRecordKind {
        switch target {
        case .post: .post
        case .comment: .comment
        case .message: .message
        }
    }
}
