/// A change a signed-in user asks the server to make.
///
/// The server applies it as the user of the connection it arrives on, and answers with a
/// ``SocialMutationResult``. It refuses changes the user may not make (editing someone else's
/// message, say) with ``SocialAPIError/rejected(_:)``.
public enum SocialMutation: Sendable, Hashable {
    /// Publishes a post in a feed.
    case createPost(targetType: FeedTargetType, targetId: String, text: String)
    /// Changes the text of one of the user's posts.
    case updatePost(id: String, text: String)
    /// Deletes one of the user's posts (softly).
    case deletePost(id: String)
    /// Comments on a post, or replies to a comment of it when `parentId` is given.
    case createComment(postId: String, parentId: String?, text: String)
    /// Changes the text of one of the user's comments.
    case updateComment(id: String, text: String)
    /// Deletes one of the user's comments (softly).
    case deleteComment(id: String)
    /// Reacts to a target; reacting twice with the same name changes nothing.
    case addReaction(targetType: ReactionTargetType, targetId: String, name: String)
    /// Removes the user's reaction with `name` from a target.
    case removeReaction(targetType: ReactionTargetType, targetId: String, name: String)
    /// Follows a user; following twice changes nothing.
    case follow(userId: String)
    /// Stops following a user.
    case unfollow(userId: String)
    /// Sends a message. The server stores a `clientRequestId` once: sending it again returns the
    /// message already stored, so a resend after a lost answer never duplicates a message.
    /// `metaArrays` are stored with the message as the sender gives them.
    case sendMessage(
        channelId: String, clientRequestId: String, type: MessageType, text: String, parentId: String?,
        metaArrays: [String: [String]] = [:])
    /// Changes the text of one of the user's messages (by server id).
    case editMessage(id: String, text: String)
    /// Deletes one of the user's messages (softly, by server id).
    case deleteMessage(id: String)
    /// Joins a channel; joining twice changes nothing.
    case joinChannel(id: String)
    /// Leaves a channel.
    case leaveChannel(id: String)
    /// Joins a community; joining twice changes nothing.
    case joinCommunity(id: String)
    /// Leaves a community.
    case leaveCommunity(id: String)
    /// Changes the user's own profile; nil values stay as they are.
    case updateUser(displayName: String?, about: String?, avatarURL: String?)

    /// A text message: ``sendMessage(channelId:clientRequestId:type:text:parentId:metaArrays:)`` with a `.text` type and no parent.
    public static func sendText(_ text: String, channelId: String, clientRequestId: String) -> Self {
        .sendMessage(channelId: channelId, clientRequestId: clientRequestId, type: .text, text: text, parentId: nil)
    }
}
