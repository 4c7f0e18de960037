/// The orders a list of communities can be sorted in.
///
/// Stored as its raw text, so the cache and the server can filter on it.
public enum CommunitySortOrder: String, Sendable, Hashable, CaseIterable {
    /// Alphabetically by display name.
    case displayName
    /// By creation time, newest first.
    case newestFirst
}
