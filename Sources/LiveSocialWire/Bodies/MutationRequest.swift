import LiveSocial

/// The body of `POST /v1/mutations`: `{"mutation": <mutation>}`, sent with an `Idempotency-Key` header.
public struct MutationRequest: Sendable, Hashable, Codable {
    private enum Keys: String, CodingKey { case mutation }

    /// The change to make.
    public var mutation: SocialMutation

    /// Creates a mutation request.
    public init(mutation: SocialMutation) {
        self.mutation = mutation
    }

    /// Reads the body.
    public init(from decoder: any Decoder) throws {
        mutation = try decoder.container(keyedBy: Keys.self).decodeWire(SocialMutation.self, forKey: .mutation)
    }

    /// Writes the body.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeWire(mutation, forKey: .mutation)
    }
}
