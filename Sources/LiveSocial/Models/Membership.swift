import LiveRepository

/// Whether a channel member is in the channel.
///
/// Stored as its raw text, so the cache and the server can filter on it.
public enum Membership: String, Sendable, Hashable, CaseIterable, ColumnValue {
    /// A member in good standing.
    case member
    /// A member the moderators banned: their messages are refused.
    case banned
}
