import LiveRepository

/// Where a follow relationship stands.
///
/// Stored as its raw text, so the cache and the server can filter on it.
public enum FollowStatus: String, Sendable, Hashable, CaseIterable, ColumnValue {
    /// The follow is in effect: it counts in follower and following counts.
    case accepted
    /// The followee has not accepted yet (private accounts).
    case pending
    /// The followee blocked the follower.
    case blocked
}
