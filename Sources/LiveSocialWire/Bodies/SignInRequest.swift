/// The body of `POST /v1/sessions`: `{"userId":..,"password":..}`.
public struct SignInRequest: Sendable, Hashable, Codable {
    /// The user signing in.
    public var userId: String
    /// The user's password.
    public var password: String

    /// Creates a sign-in request.
    public init(userId: String, password: String) {
        self.userId = userId
        self.password = password
    }
}
