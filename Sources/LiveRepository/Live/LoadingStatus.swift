/// The state of the server request behind a live object or collection.
public enum LoadingStatus: Sendable, Hashable, CustomStringConvertible {
    /// No request has been made, or none is needed.
    case notLoading
    /// A request is on its way.
    case loading
    /// The last request succeeded: the data is up to date with the server.
    case loaded
    /// The last request failed. See the `error` property; local data stays available.
    case error

    /// The case's name.
    public var description: String {
        switch self {
        case .notLoading: "notLoading"
        case .loading: "loading"
        case .loaded: "loaded"
        case .error: "error"
        }
    }
}
