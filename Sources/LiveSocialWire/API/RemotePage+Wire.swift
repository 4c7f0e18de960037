import LiveRepository

extension RemotePage: WireCodable where Record: WireCodable {
    private enum Keys: String, CodingKey { case records, nextCursor }

    /// Reads `{"records":[..],"nextCursor": string|null}`.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            records: try c.decodeWire([Record].self, forKey: .records),
            nextCursor: try c.decodeIfPresent(String.self, forKey: .nextCursor))
    }

    /// Writes the page's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeWire(records, forKey: .records)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}
