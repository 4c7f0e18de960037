import Foundation

/// One HTTP request as the transport sends it: what the tests' fake HTTP layer sees.
struct HTTPRequest: Sendable, Hashable {
    /// `GET`, `POST` or `DELETE`.
    var method: String
    /// The full address.
    var url: URL
    /// The header fields.
    var headers: [String: String]
    /// The body, if any.
    var body: Data?
    /// How long the request may take, in seconds.
    var timeout: Double
}
