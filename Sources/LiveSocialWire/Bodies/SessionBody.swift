/// The answer to signing in and to renewing a session: `{"token":..,"userId":..,"expiresAt":..}`.
public struct SessionBody: Sendable, Hashable, Codable {
    /// The bearer token to send as `Authorization: Bearer <token>`.
    public var token: String
    /// The signed-in user.
    public var userId: String
    /// When the token expires, in seconds since 1970.
    public var expiresAt: Double

    /// Creates a session body.
    public init(token: String, userId: String, expiresAt: Double) {
        self.token = token
        self.userId = userId
        self.expiresAt = expiresAt
    }
}
