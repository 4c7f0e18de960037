import LiveSocial

/// The answer to `GET /v1/records/{kind}/{id}`: `{"record": <record>}`, or `{"record": null}` when
/// the record does not exist or the user may not see it.
public struct RecordBody: Sendable, Hashable, Codable {
    private enum Keys: String, CodingKey { case record }

    /// The record, or nil.
    public var record: SocialRecord?

    /// Creates a record body.
    public init(record: SocialRecord?) {
        self.record = record
    }

    /// Reads the body.
    public init(from decoder: any Decoder) throws {
        record = try decoder.container(keyedBy: Keys.self).decodeWireIfPresent(SocialRecord.self, forKey: .record)
    }

    /// Writes the body; a missing record as `null`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeWire(record, forKey: .record)
    }
}
