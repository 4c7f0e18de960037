/// One report of a ``ChannelCollection``: what its delegate hears, as a value for
/// ``ChannelCollection/events``.
public enum ChannelCollectionEvent: Sendable, Hashable {
    /// Channels joined the list.
    case added([Channel], ChannelContext)
    /// Channels changed.
    case updated([Channel], ChannelContext)
    /// Channels left the list, by id.
    case deleted([String], ChannelContext)
}
