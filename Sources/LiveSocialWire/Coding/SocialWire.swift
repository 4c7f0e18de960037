import Foundation

/// Encodes and decodes the JSON bodies exchanged by a client and a server of the social domain.
///
/// Both sides use these functions, so they agree on the format: UTF-8 JSON, times as seconds
/// since 1970 (doubles), sequence numbers as integers.
///
/// ```swift
/// let data = try SocialWire.encode(PageRequestBody(query: .channels(types: nil, includeDeleted: false), cursor: nil, limit: 20))
/// let body = try SocialWire.decode(PageRequestBody.self, from: data)
/// ```
///
/// A body that cannot be read throws ``WireDecodingError``, whose message says where and what is
/// wrong, ready for a 400 answer.
public enum SocialWire {
    /// Encodes a `Codable` body.
    public static func encode<Body: Encodable>(_ body: Body) throws -> Data {
        try JSONEncoder().encode(body)
    }

    /// Encodes a value of the social domain in its wire form.
    public static func encode<Value: WireCodable>(_ value: Value) throws -> Data {
        try JSONEncoder().encode(Wire(value))
    }

    /// Decodes a `Codable` body, turning any failure into a ``WireDecodingError``.
    public static func decode<Body: Decodable>(_ type: Body.Type, from data: Data) throws(WireDecodingError) -> Body {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw WireDecodingError(error)
        } catch {
            throw WireDecodingError(message: "the body is not valid JSON: \(error.localizedDescription)")
        }
    }

    /// Decodes a value of the social domain from its wire form.
    public static func decode<Value: WireCodable>(_ type: Value.Type, from data: Data) throws(WireDecodingError) -> Value {
        try decode(Wire<Value>.self, from: data).value
    }
}
