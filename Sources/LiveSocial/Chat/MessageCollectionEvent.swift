/// One report of a ``MessageCollection``: what its delegate hears, as a value for
/// ``MessageCollection/events``.
public enum MessageCollectionEvent: Sendable, Hashable {
    /// Messages joined the collection (sent, received, or found by a catch-up).
    case added([Message], MessageContext)
    /// Messages changed: edited, reacted to, or their sending status moved (matched by client
    /// request id, so a sent message updates its pending copy).
    case updated([Message], MessageContext)
    /// Messages left the collection: deleted, removed when failed, no longer matching, or sent
    /// beyond the loaded part.
    case deleted([Message], MessageContext)
    /// The channel changed.
    case channelUpdated(Channel, ChannelContext)
    /// The channel was deleted, by id: dispose of the view.
    case channelDeleted(String, ChannelContext)
    /// More messages are missing than the collection's huge-gap threshold: dispose of it and
    /// create a new one.
    case hugeGapDetected
}
