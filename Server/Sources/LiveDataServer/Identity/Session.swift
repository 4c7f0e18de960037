/// A signed-in session: the token handed to the client, whose user it acts as, and until when.
public struct Session: Sendable, Hashable {
    /// The token the client presents; the server stores only its digest.
    public var token: SessionToken
    /// The user the token acts as.
    public var userId: String
    /// When the token stops working, in seconds since 1970.
    public var expiresAt: Double

    /// A session of `userId` with `token`, valid until `expiresAt` (seconds since 1970).
    public init(token: SessionToken, userId: String, expiresAt: Double) {
        self.token = token
        self.userId = userId
        self.expiresAt = expiresAt
    }
}
