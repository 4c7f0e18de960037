import LiveSocial

extension MessagePosition: WireCodable {
    private enum Keys: String, CodingKey { case createdAt, id }

    /// The wire form of the open ends of history, which JSON numbers cannot hold.
    private static let newestEnd = "Infinity"
    private static let oldestEnd = "-Infinity"

    /// Reads `{"createdAt": <seconds>, "id": ..}`, where `createdAt` may also be `"Infinity"` or
    /// `"-Infinity"`: the ends of history that a collection opened at the newest (or oldest)
    /// messages pages from.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let createdAt: Double
        if let seconds = try? c.decode(Double.self, forKey: .createdAt) {
            createdAt = seconds
        } else {
            switch try c.decode(String.self, forKey: .createdAt) {
            case Self.newestEnd: createdAt = .infinity
            case Self.oldestEnd: createdAt = -.infinity
            case let other:
                throw DecodingError.dataCorruptedError(
                    forKey: .createdAt, in: c,
                    debugDescription: "createdAt is seconds since 1970, \"Infinity\" or \"-Infinity\", not \"\(other)\"")
            }
        }
        self.init(createdAt: createdAt, id: try c.decode(String.self, forKey: .id))
    }

    /// Writes the position's wire form: `createdAt` as a number, or as `"Infinity"` or
    /// `"-Infinity"` for the ends of history.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch createdAt {
        case .infinity: try c.encode(Self.newestEnd, forKey: .createdAt)
        case -.infinity: try c.encode(Self.oldestEnd, forKey: .createdAt)
        default: try c.encode(createdAt, forKey: .createdAt)
        }
        try c.encode(id, forKey: .id)
    }
}
