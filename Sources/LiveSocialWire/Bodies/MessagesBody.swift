import LiveSocial

/// The answer to `POST /v1/messages`: `{"messages":[..]}`.
public struct MessagesBody: Sendable, Hashable, Codable {
    private enum Keys: String, CodingKey { case messages }

    /// The messages, in the query's order.
    public var messages: [Message]

    /// Creates a messages body.
    public init(messages: [Message]) {
        self.messages = messages
    }

    /// Reads the body.
    public init(from decoder: any Decoder) throws {
        messages = try decoder.container(keyedBy: Keys.self).decodeWire([Message].self, forKey: .messages)
    }

    /// Writes the body.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeWire(messages, forKey: .messages)
    }
}
