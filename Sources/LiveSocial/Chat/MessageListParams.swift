/// What a ``MessageCollection`` lists and how: order, page sizes, filters, and the extras its
/// messages carry.
///
/// ```swift
/// var params = MessageListParams()
/// params.previousResultSize = 30
/// params.messageTypeFilter = .user
/// let collection = client.createMessageCollection(channelId: "general", params: params)
/// ```
public struct MessageListParams: Sendable, Hashable {
    /// Whether lists are newest first. False (the default) lists oldest first, as a chat shows
    /// them from top to bottom. Applies to ``MessageCollection/succeededMessages`` and to every
    /// list a handler receives.
    public var reverse = false
    /// Whether messages created at exactly the starting point are included. False by default.
    public var isInclusive = false
    /// The kinds of message to list; every kind by default.
    public var messageTypeFilter: MessageTypeFilter = .all
    /// Whether messages carry their ``Message/metaArrays``; when false they come with none.
    public var includeMetaArray = false
    /// Whether messages carry their ``Message/reactions``; when false they come with none (the
    /// ``Message/reactionCount`` is always there).
    public var includeReactions = false
    /// How many messages before the starting point the collection opens with, and how many
    /// ``MessageCollection/loadPrevious()`` adds; 20 by default.
    public var previousResultSize = 20
    /// How many messages after the starting point the collection opens with, and how many
    /// ``MessageCollection/loadNext()`` adds; 20 by default.
    public var nextResultSize = 20
    /// Only the messages of these senders, or nil (the default) for everyone's.
    public var senderUserIds: Set<String>?

    /// Creates parameters; every value has the default described on its property.
    public init(
        reverse: Bool = false, isInclusive: Bool = false, messageTypeFilter: MessageTypeFilter = .all,
        includeMetaArray: Bool = false, includeReactions: Bool = false, previousResultSize: Int = 20,
        nextResultSize: Int = 20, senderUserIds: Set<String>? = nil
    ) {
        self.reverse = reverse
        self.isInclusive = isInclusive
        self.messageTypeFilter = messageTypeFilter
        self.includeMetaArray = includeMetaArray
        self.includeReactions = includeReactions
        self.previousResultSize = previousResultSize
        self.nextResultSize = nextResultSize
        self.senderUserIds = senderUserIds
    }

    /// Whether a message belongs in a list with these parameters (in any channel; not deleted).
    public func matches(_ message: Message) -> Bool {
        guard !message.isDeleted else { return false }
        if let types = messageTypeFilter.types, !types.contains(message.type) { return false }
        if let senderUserIds, !senderUserIds.contains(message.userId) { return false }
        return true
    }

    /// The message as a list with these parameters hands it out: without meta arrays or
    /// reactions unless they are included.
    public func project(_ message: Message) -> Message {
        var projected = message
        if !includeMetaArray { projected.metaArrays = [:] }
        if !includeReactions { projected.reactions = [] }
        return projected
    }

    /// The query of a channel's listed messages, newest or oldest first.
    func query(channelId: String, newestFirst: Bool) -> SocialQuery<Message> {
        .messages(channelId: channelId, types: messageTypeFilter.types, senderIds: senderUserIds, newestFirst: newestFirst)
    }
}
