/// The kinds of requests a client makes to an ``EmbeddedServer``, for failure injection.
///
/// Pass a set of them to ``EmbeddedServer/failRequests(_:message:)`` to make only those requests fail.
public enum ServerRequestKind: String, Sendable, Hashable, CaseIterable {
    /// Reads of one record: `SocialAPI.fetch(_:id:)`.
    case fetch
    /// Reads of a page of a list: `SocialAPI.fetchPage(_:cursor:limit:)` and
    /// `SocialAPI.fetchMessages(_:after:limit:)`.
    case fetchPage
    /// Catch-up reads of the change log: `SocialAPI.changes(since:limit:scope:)`.
    case changes
    /// Reads of the latest sequence number: `SocialAPI.latestSequence()`.
    case latestSequence
    /// Mutations: `SocialAPI.perform(_:)`.
    case mutation
}
