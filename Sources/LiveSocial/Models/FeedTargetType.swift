import LiveRepository

/// Where a post is published: a community's feed or a user's own feed.
///
/// Stored as its raw text, so the cache and the server can filter on it.
public enum FeedTargetType: String, Sendable, Hashable, CaseIterable, ColumnValue {
    /// The feed of a community; the target id is the community's id.
    case community
    /// The feed of a user; the target id is the user's id.
    case user
}
