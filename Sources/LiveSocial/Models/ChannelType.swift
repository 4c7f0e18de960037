import LiveRepository

/// The kind of a chat channel.
///
/// Stored as its raw text, so the cache and the server can filter on it.
public enum ChannelType: String, Sendable, Hashable, CaseIterable, ColumnValue {
    /// An open channel anyone can join.
    case community
    /// A channel attached to a live event, usually busy and short-lived.
    case live
    /// A private conversation between a few members.
    case conversation
}
