/// Where the data a live object or collection shows comes from.
public enum DataStatus: Sendable, Hashable, CustomStringConvertible {
    /// Nothing is known yet, or the object does not exist in the cache nor on the server.
    case notExist
    /// The data comes from the local cache and has not been confirmed by the server yet.
    case local
    /// The data has been confirmed by the server; later real-time changes keep it fresh.
    case fresh
    /// The data could not be loaded and there is nothing local to show. See the `error` property.
    case error

    /// The case's name.
    public var description: String {
        switch self {
        case .notExist: "notExist"
        case .local: "local"
        case .fresh: "fresh"
        case .error: "error"
        }
    }
}
