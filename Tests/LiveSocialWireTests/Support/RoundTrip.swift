import Foundation
import LiveSocialWire

/// Encodes a value to JSON and reads it back.
func roundTrip<Value: WireCodable>(_ value: Value) throws -> Value {
    try SocialWire.decode(Value.self, from: try SocialWire.encode(value))
}

/// Encodes a body to JSON and reads it back.
func roundTripBody<Body: Codable>(_ body: Body) throws -> Body {
    try SocialWire.decode(Body.self, from: try SocialWire.encode(body))
}

/// The JSON object a value encodes to, for checking field names.
func jsonObject<Value: WireCodable>(_ value: Value) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: try SocialWire.encode(value)) as? [String: Any] ?? [:]
}

/// Decodes JSON text as a value, returning the error message on failure.
func decodingMessage<Value: WireCodable>(_ type: Value.Type, _ json: String) -> String? {
    do {
        _ = try SocialWire.decode(type, from: Data(json.utf8))
        return nil
    } catch {
        return error.message
    }
}
