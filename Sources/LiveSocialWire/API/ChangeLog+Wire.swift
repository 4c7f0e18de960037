import LiveSocial

extension ChangeLog: WireCodable {
    private enum Keys: String, CodingKey { case records, deleted, latestSequence, hasMore }

    /// Reads `{"records":[..],"deleted":[keys],"latestSequence":..,"hasMore":..}`.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            records: try c.decodeWire([SocialRecord].self, forKey: .records),
            deleted: try c.decodeWire([SocialRecordKey].self, forKey: .deleted),
            latestSequence: try c.decode(Int64.self, forKey: .latestSequence), hasMore: try c.decode(Bool.self, forKey: .hasMore))
    }

    /// Writes the change log's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeWire(records, forKey: .records)
        try c.encodeWire(deleted, forKey: .deleted)
        try c.encode(latestSequence, forKey: .latestSequence)
        try c.encode(hasMore, forKey: .hasMore)
    }
}
