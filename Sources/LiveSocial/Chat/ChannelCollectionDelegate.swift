/// What a ``ChannelCollection`` tells the object that shows it. Every method has an empty
/// default, so implement only those you need.
///
/// Pages are answered by ``ChannelCollection/loadMore()``, not here: the delegate hears about
/// changes from real-time events, catch-ups and the user's own actions.
@MainActor
public protocol ChannelCollectionDelegate: AnyObject {
    /// Channels joined the list (created, or became active enough to rank in the loaded part).
    func channelCollection(_ collection: ChannelCollection, context: ChannelContext, addedChannels: [Channel])
    /// Channels changed; a channel whose last activity moved may have moved in ``ChannelCollection/channels``.
    func channelCollection(_ collection: ChannelCollection, context: ChannelContext, updatedChannels: [Channel])
    /// Channels left the list (deleted, or no longer matching), by id.
    func channelCollection(_ collection: ChannelCollection, context: ChannelContext, deletedChannelIds: [String])
}

extension ChannelCollectionDelegate {
    /// Does nothing.
    public func channelCollection(_ collection: ChannelCollection, context: ChannelContext, addedChannels: [Channel]) {}
    /// Does nothing.
    public func channelCollection(_ collection: ChannelCollection, context: ChannelContext, updatedChannels: [Channel]) {}
    /// Does nothing.
    public func channelCollection(_ collection: ChannelCollection, context: ChannelContext, deletedChannelIds: [String]) {}
}
