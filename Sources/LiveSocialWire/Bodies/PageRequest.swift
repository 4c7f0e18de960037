import LiveSocial

/// The body of `POST /v1/pages`: `{"query": <query kind>, "cursor": string|null, "limit": int}`.
public struct PageRequest: Sendable, Hashable, Codable {
    private enum Keys: String, CodingKey { case query, cursor, limit }

    /// The list to read (see ``LiveSocial/SocialQueryKind/query(of:)`` for the full query).
    public var query: SocialQueryKind
    /// Nil for the first page, else the previous page's `nextCursor`.
    public var cursor: String?
    /// The most records to return.
    public var limit: Int

    /// Creates a page request.
    public init(query: SocialQueryKind, cursor: String?, limit: Int) {
        self.query = query
        self.cursor = cursor
        self.limit = limit
    }

    /// Reads the body.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        query = try c.decodeWire(SocialQueryKind.self, forKey: .query)
        cursor = try c.decodeIfPresent(String.self, forKey: .cursor)
        limit = try c.decode(Int.self, forKey: .limit)
    }

    /// Writes the body.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeWire(query, forKey: .query)
        try c.encode(cursor, forKey: .cursor)
        try c.encode(limit, forKey: .limit)
    }
}
