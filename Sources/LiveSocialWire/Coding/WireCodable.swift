/// A value with a JSON form on the wire between a client and a server of the social domain.
///
/// The models of `LiveSocial` conform in this module rather than to `Codable`, so that their
/// JSON form is one deliberate contract (written down in `WIRE-CONTRACT.md`) that an app does
/// not inherit by importing the models. Encode and decode conforming values with
/// ``SocialWire``, or inside a `Codable` type with the keyed container helpers
/// (`encodeWire(_:forKey:)`, `decodeWire(_:forKey:)`).
public protocol WireCodable: Sendable {
    /// Reads the value from its JSON form.
    init(wireFrom decoder: any Decoder) throws

    /// Writes the value's JSON form.
    func encodeWire(to encoder: any Encoder) throws
}
