extension KeyedEncodingContainer {
    /// Encodes a value of the social domain in its wire form.
    public mutating func encodeWire<Value: WireCodable>(_ value: Value, forKey key: Key) throws {
        try encode(Wire(value), forKey: key)
    }

    /// Encodes an optional value of the social domain; nil is written as JSON `null`.
    public mutating func encodeWire<Value: WireCodable>(_ value: Value?, forKey key: Key) throws {
        if let value { try encode(Wire(value), forKey: key) } else { try encodeNil(forKey: key) }
    }

    /// Encodes a list of values of the social domain.
    public mutating func encodeWire<Value: WireCodable>(_ values: [Value], forKey key: Key) throws {
        try encode(values.map(Wire.init), forKey: key)
    }

    /// Encodes an optional set of raw-value enums as a sorted list, or `null` for nil ("any value").
    mutating func encodeSorted<Value: RawRepresentable>(_ values: Set<Value>?, forKey key: Key) throws
    where Value.RawValue == String {
        if let values { try encode(values.map(\.rawValue).sorted(), forKey: key) } else { try encodeNil(forKey: key) }
    }

    /// Encodes an optional set of strings as a sorted list, or `null` for nil ("any value").
    mutating func encodeSorted(_ values: Set<String>?, forKey key: Key) throws {
        if let values { try encode(values.sorted(), forKey: key) } else { try encodeNil(forKey: key) }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a value of the social domain from its wire form.
    public func decodeWire<Value: WireCodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try decode(Wire<Value>.self, forKey: key).value
    }

    /// Decodes an optional value of the social domain: nil when the key is missing or `null`.
    public func decodeWireIfPresent<Value: WireCodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        try decodeIfPresent(Wire<Value>.self, forKey: key)?.value
    }

    /// Decodes a list of values of the social domain.
    public func decodeWire<Value: WireCodable>(_ type: [Value].Type, forKey key: Key) throws -> [Value] {
        try decode([Wire<Value>].self, forKey: key).map(\.value)
    }

    /// Decodes an optional set of raw-value enums: nil when missing or `null`; an unknown value
    /// is a data-corrupted error naming it.
    func decodeSet<Value: RawRepresentable & Hashable>(_ type: Value.Type, forKey key: Key) throws -> Set<Value>?
    where Value.RawValue == String {
        guard let raw = try decodeIfPresent([String].self, forKey: key) else { return nil }
        return Set(try raw.map { try Self.enumValue(Value.self, $0, forKey: key, in: self) })
    }

    /// Decodes a raw-value enum; an unknown value is a data-corrupted error naming it and the
    /// values allowed.
    func decodeEnum<Value: RawRepresentable>(_ type: Value.Type, forKey key: Key) throws -> Value
    where Value.RawValue == String {
        try Self.enumValue(Value.self, try decode(String.self, forKey: key), forKey: key, in: self)
    }

    /// Decodes an optional raw-value enum: nil when missing or `null`.
    func decodeEnumIfPresent<Value: RawRepresentable>(_ type: Value.Type, forKey key: Key) throws -> Value?
    where Value.RawValue == String {
        guard let raw = try decodeIfPresent(String.self, forKey: key) else { return nil }
        return try Self.enumValue(Value.self, raw, forKey: key, in: self)
    }

    private static func enumValue<Value: RawRepresentable>(
        _ type: Value.Type, _ raw: String, forKey key: Key, in container: Self
    ) throws -> Value where Value.RawValue == String {
        if let value = Value(rawValue: raw) { return value }
        let allowed = (Value.self as? any CaseIterable.Type).map { type in
            " (expected one of: " + type.allCaseNames.joined(separator: ", ") + ")"
        } ?? ""
        throw DecodingError.dataCorruptedError(
            forKey: key, in: container, debugDescription: "unknown value \"\(raw)\"\(allowed)")
    }
}

extension CaseIterable {
    /// The names of every case, for error messages.
    fileprivate static var allCaseNames: [String] {
        allCases.map { ($0 as? any RawRepresentable).map { "\($0.rawValue)" } ?? "\($0)" }
    }
}
