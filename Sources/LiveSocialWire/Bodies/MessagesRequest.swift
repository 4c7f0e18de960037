import LiveSocial

/// The body of `POST /v1/messages`: `{"query": <messages query kind>, "after": <position>, "limit": int}`.
public struct MessagesRequest: Sendable, Hashable, Codable {
    private enum Keys: String, CodingKey { case query, after, limit }

    /// The messages query; its kind must be `messages` (a server answers another with 400).
    public var query: SocialQueryKind
    /// The position the page starts after, in the query's order.
    public var after: MessagePosition
    /// The most messages to return.
    public var limit: Int

    /// Creates a messages request.
    public init(query: SocialQueryKind, after: MessagePosition, limit: Int) {
        self.query = query
        self.after = after
        self.limit = limit
    }

    /// Reads the body.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        query = try c.decodeWire(SocialQueryKind.self, forKey: .query)
        after = try c.decodeWire(MessagePosition.self, forKey: .after)
        limit = try c.decode(Int.self, forKey: .limit)
    }

    /// Writes the body.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeWire(query, forKey: .query)
        try c.encodeWire(after, forKey: .after)
        try c.encode(limit, forKey: .limit)
    }
}
