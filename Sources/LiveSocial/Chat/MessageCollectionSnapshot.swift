/// Everything a chat view draws from a ``MessageCollection`` at one moment: the value of
/// ``MessageCollection/snapshot``.
public struct MessageCollectionSnapshot: Sendable, Hashable {
    /// The messages the server stored, in the order of ``MessageListParams/reverse``.
    public var succeededMessages: [Message] = []
    /// The user's messages waiting to be sent, oldest first.
    public var pendingMessages: [Message] = []
    /// The user's messages that failed to send, oldest first.
    public var failedMessages: [Message] = []
    /// Whether older messages can be loaded.
    public var hasPrevious = true
    /// Whether newer messages can be loaded; while true, new messages are not added by themselves.
    public var hasNext = true
    /// The channel, once read from the cache or the server.
    public var channel: Channel?

    /// Creates an empty snapshot.
    public init() {}
}
