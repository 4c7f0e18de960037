/// The answer to `GET /health`: `{"status":"ok"}`.
public struct HealthBody: Sendable, Hashable, Codable {
    /// `ok` when the server serves.
    public var status: String

    /// Creates a health body.
    public init(status: String = "ok") {
        self.status = status
    }
}
