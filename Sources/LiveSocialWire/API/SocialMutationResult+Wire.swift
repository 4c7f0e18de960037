import LiveSocial

extension SocialMutationResult: WireCodable {
    private enum Keys: String, CodingKey { case records, deleted, sequence }

    /// Reads `{"records":[..],"deleted":[keys],"sequence":..}`.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            records: try c.decodeWire([SocialRecord].self, forKey: .records),
            deleted: try c.decodeWire([SocialRecordKey].self, forKey: .deleted),
            sequence: try c.decode(Int64.self, forKey: .sequence))
    }

    /// Writes the result's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeWire(records, forKey: .records)
        try c.encodeWire(deleted, forKey: .deleted)
        try c.encode(sequence, forKey: .sequence)
    }
}
