import LiveRepository

/// A member's role in a channel or a community.
///
/// Stored as its raw text, so the cache and the server can filter on it.
public enum MemberRole: String, Sendable, Hashable, CaseIterable, ColumnValue {
    /// An ordinary member.
    case member
    /// A member who may remove others' content.
    case moderator
    /// A member who manages the channel or community.
    case admin
}
