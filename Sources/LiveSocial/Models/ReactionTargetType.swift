import LiveRepository

/// What a reaction is attached to.
///
/// Stored as its raw text, so the cache and the server can filter on it.
public enum ReactionTargetType: String, Sendable, Hashable, CaseIterable, ColumnValue {
    /// A post; the target id is the post's id.
    case post
    /// A comment; the target id is the comment's id.
    case comment
    /// A chat message; the target id is the message's server id.
    case message
}
