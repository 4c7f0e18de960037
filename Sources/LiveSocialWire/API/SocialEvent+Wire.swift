import LiveSocial

extension SocialEvent: WireCodable {
    private enum Keys: String, CodingKey { case kind, record, key, sequence }

    /// The name of the event's kind: `created`, `updated`, `deleted`, `connected` or
    /// `disconnected`; also the `event:` field of the event in a Server-Sent Events stream.
    public var wireName: String {
        switch self {
        case .created: "created"
        case .updated: "updated"
        case .deleted: "deleted"
        case .connected: "connected"
        case .disconnected: "disconnected"
        }
    }

    /// Reads an event: `{"kind":"created"|"updated","record":..,"sequence":..}`,
    /// `{"kind":"deleted","key":..,"sequence":..}`, or `{"kind":"connected"|"disconnected"}`.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "created": self = .created(try c.decodeWire(SocialRecord.self, forKey: .record), sequence: try c.decode(Int64.self, forKey: .sequence))
        case "updated": self = .updated(try c.decodeWire(SocialRecord.self, forKey: .record), sequence: try c.decode(Int64.self, forKey: .sequence))
        case "deleted": self = .deleted(try c.decodeWire(SocialRecordKey.self, forKey: .key), sequence: try c.decode(Int64.self, forKey: .sequence))
        case "connected": self = .connected
        case "disconnected": self = .disconnected
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription: "unknown value \"\(kind)\" (expected one of: created, updated, deleted, connected, disconnected)")
        }
    }

    /// Writes the event's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(wireName, forKey: .kind)
        switch self {
        case .created(let record, let sequence), .updated(let record, let sequence):
            try c.encodeWire(record, forKey: .record)
            try c.encode(sequence, forKey: .sequence)
        case .deleted(let key, let sequence):
            try c.encodeWire(key, forKey: .key)
            try c.encode(sequence, forKey: .sequence)
        case .connected, .disconnected:
            break
        }
    }
}
