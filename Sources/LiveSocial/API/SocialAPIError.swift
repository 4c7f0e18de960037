/// Why a request to the server failed.
public enum SocialAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The connection is down: the request never reached the server. Retry when connected.
    case offline
    /// The server failed (an HTTP 5xx, say), with its message. Retrying later may succeed.
    case serverFailure(String)
    /// The record the request is about does not exist on the server.
    case notFound(SocialRecordKey)
    /// The server refused the change, with its reason (a message breaking a rule, editing
    /// someone else's post...). Retrying the same change fails again.
    case rejected(String)
    /// The request itself is malformed, such as an unknown cursor or a query kind the backend lacks.
    case invalidRequest(String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .offline: "offline: the connection to the server is down"
        case .serverFailure(let message): "server failure: \(message)"
        case .notFound(let key): "not found: \(key) does not exist on the server"
        case .rejected(let reason): "rejected by the server: \(reason)"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        }
    }

    /// Whether retrying the same request later may succeed (offline and server failures).
    public var isTransient: Bool {
        switch self {
        case .offline, .serverFailure: true
        case .notFound, .rejected, .invalidRequest: false
        }
    }
}
