import LiveSocial

extension SocialRecordKey: WireCodable {
    private enum Keys: String, CodingKey { case kind, id }

    /// Reads a key from `{"kind": .., "id": ..}`.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(try c.decodeEnum(SocialRecordKind.self, forKey: .kind), try c.decode(String.self, forKey: .id))
    }

    /// Writes `{"kind": .., "id": ..}`.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(kind.rawValue, forKey: .kind)
        try c.encode(id, forKey: .id)
    }
}
