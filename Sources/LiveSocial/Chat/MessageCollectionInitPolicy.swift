/// How a ``MessageCollection`` combines the cache and the server when it starts.
public enum MessageCollectionInitPolicy: Sendable, Hashable {
    /// The cached messages around the starting point first, then the server's, which replace
    /// them: the cache is cleared for the range the server answered for.
    case cacheAndReplaceByApi
}
