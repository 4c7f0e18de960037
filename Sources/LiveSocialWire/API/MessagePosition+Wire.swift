import LiveSocial

extension MessagePosition: WireCodable {
    private enum Keys: String, CodingKey { case createdAt, id }

    /// Reads `{"createdAt": <seconds>, "id": ..}`.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(createdAt: try c.decode(Double.self, forKey: .createdAt), id: try c.decode(String.self, forKey: .id))
    }

    /// Writes the position's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(id, forKey: .id)
    }
}
