/// A list request in domain terms, with its parameters.
///
/// A backend maps a kind to its own API (a REST path and query items, say); the local cache
/// runs the same request as ``SocialQuery/cacheQuery``. Sets of filter values are nil for
/// "any value".
public enum SocialQueryKind: Sendable, Hashable {
    /// Posts in a user's own feed (target type `user`), newest first.
    case userFeed(userId: String, includeDeleted: Bool)
    /// Posts written by a user, in any feed, newest first.
    case postsByAuthor(authorId: String, includeDeleted: Bool)
    /// Posts in a community's feed, newest first.
    case communityFeed(communityId: String, includeDeleted: Bool)
    /// Comments of a post: top-level ones when `parentId` is nil, else the replies to that comment.
    case comments(postId: String, parentId: String?, newestFirst: Bool, includeDeleted: Bool)
    /// Reactions to a target, newest first, optionally only those with one name.
    case reactions(targetType: ReactionTargetType, targetId: String, name: String?)
    /// The follows of a user by others, newest first, optionally only those with one status.
    case followers(userId: String, status: FollowStatus?)
    /// The follows by a user of others, newest first, optionally only those with one status.
    case following(userId: String, status: FollowStatus?)
    /// Channels, most recently active first.
    case channels(types: Set<ChannelType>?, includeDeleted: Bool)
    /// Messages of a channel.
    case messages(channelId: String, types: Set<MessageType>?, senderIds: Set<String>?, includeDeleted: Bool, newestFirst: Bool)
    /// Members of a channel, earliest joined first.
    case channelMembers(channelId: String, roles: Set<MemberRole>?, memberships: Set<Membership>?)
    /// Communities.
    case communities(publicOnly: Bool, includeDeleted: Bool, sortedBy: CommunitySortOrder)
    /// Members of a community, earliest joined first.
    case communityMembers(communityId: String, roles: Set<MemberRole>?)
}
