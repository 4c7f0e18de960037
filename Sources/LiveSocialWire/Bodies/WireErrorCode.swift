/// The `code` of an error answer: what kind of failure, each with its HTTP status.
public enum WireErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    /// 400: the request is malformed (bad JSON, wrong types, unknown kinds, a bad cursor or limit).
    case invalidRequest = "invalid_request"
    /// 401: no token, or one that is expired, revoked or unknown; or wrong credentials at sign-in.
    case unauthorized
    /// 403: the user may not do this.
    case forbidden
    /// 404: no such route, or the target of a mutation does not exist.
    case notFound = "not_found"
    /// 409 or 422: the domain refused the change (not a member, not the author...).
    case rejected
    /// 413: the body or a text in it is too large.
    case tooLarge = "too_large"
    /// 429: too many requests; the `Retry-After` header says when to try again.
    case rateLimited = "rate_limited"
    /// 500 or 503: the server failed.
    case serverFailure = "server_failure"

    /// The HTTP status a server answers with for this code.
    public var status: Int {
        switch self {
        case .invalidRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .rejected: 422
        case .tooLarge: 413
        case .rateLimited: 429
        case .serverFailure: 500
        }
    }

    /// The code of an error answer whose body could not be read (a proxy's HTML page, say), from its status.
    public init(status: Int) {
        switch status {
        case 401: self = .unauthorized
        case 403: self = .forbidden
        case 404: self = .notFound
        case 409, 422: self = .rejected
        case 413: self = .tooLarge
        case 429: self = .rateLimited
        case 400..<500: self = .invalidRequest
        default: self = .serverFailure
        }
    }
}
