/// What a ``MessageCollection`` tells the object that shows it. Every method has an empty
/// default, so implement only those you need.
///
/// Page loads and the start are answered through their handlers, not here: the delegate hears
/// about everything else, from sends, real-time events and catch-ups.
@MainActor
public protocol MessageCollectionDelegate: AnyObject {
    /// Messages were added: a message sent (as pending) or received, found by a catch-up, arrived
    /// while a page loaded (source `.event`), or found when a collection that started offline
    /// reaches the server (source `.api`).
    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, addedMessages: [Message])
    /// Messages were updated: edited, reacted to, or their sending status changed
    /// (pending → succeeded or failed, failed → pending, pending → canceled).
    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, updatedMessages: [Message])
    /// Messages were deleted, failed messages removed, or a sent message left the list because
    /// the server stored it beyond the loaded part (with the status `.pending`).
    func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, deletedMessages: [Message])
    /// The channel changed.
    func messageCollection(_ collection: MessageCollection, channelContext: ChannelContext, updatedChannel channel: Channel)
    /// The channel was deleted: dispose of the view.
    func messageCollection(_ collection: MessageCollection, channelContext: ChannelContext, deletedChannel channelId: String)
    /// More messages are missing than the threshold after being offline: dispose of the collection
    /// and create a new one.
    func didDetectHugeGap(_ collection: MessageCollection)
}

extension MessageCollectionDelegate {
    /// Does nothing.
    public func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, addedMessages: [Message]) {}
    /// Does nothing.
    public func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, updatedMessages: [Message]) {}
    /// Does nothing.
    public func messageCollection(
        _ collection: MessageCollection, context: MessageContext, channel: Channel?, deletedMessages: [Message]) {}
    /// Does nothing.
    public func messageCollection(
        _ collection: MessageCollection, channelContext: ChannelContext, updatedChannel channel: Channel) {}
    /// Does nothing.
    public func messageCollection(
        _ collection: MessageCollection, channelContext: ChannelContext, deletedChannel channelId: String) {}
    /// Does nothing.
    public func didDetectHugeGap(_ collection: MessageCollection) {}
}
