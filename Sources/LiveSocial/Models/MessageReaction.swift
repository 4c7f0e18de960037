/// The users who reacted to a message with one reaction key, as a message carries them.
///
/// The server keeps a message's ``Message/reactions`` in step with its `Reaction` records
/// (target type `message`); a message collection hands them out when its
/// ``MessageListParams/includeReactions`` is set.
public struct MessageReaction: Sendable, Hashable, Codable {
    /// The reaction's name, such as `"like"` or an emoji.
    public var key: String
    /// The users who reacted with ``key``, in the order they did.
    public var userIds: [String]

    /// Creates a reaction summary.
    public init(key: String, userIds: [String]) {
        self.key = key
        self.userIds = userIds
    }
}
