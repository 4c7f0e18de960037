/// A `Codable` box around a ``WireCodable`` value: lets `JSONEncoder` and `JSONDecoder` (and any
/// `Codable` type) carry a value of the social domain in its wire form.
public struct Wire<Value: WireCodable>: Codable, Sendable {
    /// The boxed value.
    public var value: Value

    /// Boxes a value.
    public init(_ value: Value) {
        self.value = value
    }

    /// Reads the value's wire form.
    public init(from decoder: any Decoder) throws {
        value = try Value(wireFrom: decoder)
    }

    /// Writes the value's wire form.
    public func encode(to encoder: any Encoder) throws {
        try value.encodeWire(to: encoder)
    }
}
