import LiveSocial

/// The `"kind"` field every record's wire form carries, so that a record in a mixed list (a change
/// log, an event) says what it is, and one read as a given model is checked to be one.
enum RecordKindCheck {
    /// Writes `kind` under `key`.
    static func write<Key: CodingKey>(_ kind: SocialRecordKind, to container: inout KeyedEncodingContainer<Key>, key: Key) throws {
        try container.encode(kind.rawValue, forKey: key)
    }

    /// Checks that the `kind` under `key`, when present, is `expected`.
    static func check<Key: CodingKey>(_ expected: SocialRecordKind, in container: KeyedDecodingContainer<Key>, key: Key) throws {
        guard let found = try container.decodeIfPresent(String.self, forKey: key), found != expected.rawValue else { return }
        throw DecodingError.dataCorruptedError(
            forKey: key, in: container, debugDescription: "expected a record of kind \"\(expected.rawValue)\", found \"\(found)\"")
    }
}
