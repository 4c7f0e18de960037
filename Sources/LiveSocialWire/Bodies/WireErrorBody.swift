import LiveSocial

/// The body of every error answer: `{"error":{"code":..,"message":..,"key":{..}}}`.
///
/// `message` says what is wrong for a person; `key` names the missing record of a `not_found`
/// answer about a mutation's target (absent otherwise). A server makes one from a thrown
/// ``LiveSocial/SocialAPIError`` with ``init(_:)``; a client turns one back into a
/// `SocialAPIError` with ``apiError``, so the two directions are written once, here.
public struct WireErrorBody: Sendable, Hashable, Codable, Error {
    /// What kind of failure.
    public var code: WireErrorCode
    /// What is wrong, for a person.
    public var message: String
    /// The record that does not exist, for a `not_found` answer about a mutation's target.
    public var key: SocialRecordKey?

    private enum Keys: String, CodingKey { case error }
    private enum DetailKeys: String, CodingKey { case code, message, key }

    /// Creates an error body.
    public init(code: WireErrorCode, message: String, key: SocialRecordKey? = nil) {
        self.code = code
        self.message = message
        self.key = key
    }

    /// The answer to a request whose handling threw `error`: `.offline` and `.serverFailure`
    /// become `server_failure` (the server's own backend failed), `.notFound` `not_found` with
    /// the key, `.rejected` `rejected`, `.invalidRequest` `invalid_request`.
    public init(_ error: SocialAPIError) {
        switch error {
        case .offline: self.init(code: .serverFailure, message: "the server's storage is unavailable")
        case .serverFailure(let message): self.init(code: .serverFailure, message: message)
        case .notFound(let key): self.init(code: .notFound, message: "\(key) does not exist", key: key)
        case .rejected(let reason): self.init(code: .rejected, message: reason)
        case .invalidRequest(let reason): self.init(code: .invalidRequest, message: reason)
        }
    }

    /// The HTTP status to answer with: the code's.
    public var status: Int { code.status }

    /// What the client's caller sees (the network transport handles `unauthorized` itself first,
    /// by renewing its session once):
    /// - `invalid_request`, `too_large` -> `.invalidRequest(message)`;
    /// - `forbidden`, `rejected` -> `.rejected(message)`; `unauthorized` -> `.rejected("signed out: ..")`;
    /// - `not_found` with a key -> `.notFound(key)`; without one (an unknown route: a client and a
    ///   server of different versions) -> `.invalidRequest(message)`;
    /// - `rate_limited`, `server_failure` -> `.serverFailure(message)`, worth retrying later.
    public var apiError: SocialAPIError {
        switch code {
        case .invalidRequest, .tooLarge: .invalidRequest(message)
        case .forbidden, .rejected: .rejected(message)
        case .unauthorized: .rejected("signed out: \(message)")
        case .notFound: key.map(SocialAPIError.notFound) ?? .invalidRequest(message)
        case .rateLimited: .serverFailure("too many requests: \(message)")
        case .serverFailure: .serverFailure(message)
        }
    }

    /// Reads `{"error":{"code":..,"message":..,"key":..}}`.
    public init(from decoder: any Decoder) throws {
        let detail = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: DetailKeys.self, forKey: .error)
        code = try detail.decode(WireErrorCode.self, forKey: .code)
        message = try detail.decode(String.self, forKey: .message)
        key = try detail.decodeWireIfPresent(SocialRecordKey.self, forKey: .key)
    }

    /// Writes `{"error":{"code":..,"message":..}}`, with `key` when there is one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var detail = container.nestedContainer(keyedBy: DetailKeys.self, forKey: .error)
        try detail.encode(code, forKey: .code)
        try detail.encode(message, forKey: .message)
        if let key { try detail.encodeWire(key, forKey: .key) }
    }
}
