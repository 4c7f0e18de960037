/// The kinds of requests a client makes to an ``EmbeddedServer``, for failure injection.
public enum ServerRequestKind: String, Sendable, Hashable, CaseIterable {
    /// ``LiveSocial/SocialAPI/fetch(_:id:)``.
    case fetch
    /// ``LiveSocial/SocialAPI/fetchPage(_:cursor:limit:)``.
    case fetchPage
    /// ``LiveSocial/SocialAPI/changes(since:limit:)``.
    case changes
    /// ``LiveSocial/SocialAPI/latestSequence()``.
    case latestSequence
    /// ``LiveSocial/SocialAPI/perform(_:)``.
    case mutation
}
