import LiveSocial

extension ChangeScope: WireCodable {
    private enum Keys: String, CodingKey { case scope, channelId }

    /// The scope's name in `GET /v1/changes?scope=`: `all`, `channels` or `messages`.
    public var wireName: String {
        switch self {
        case .all: "all"
        case .channels: "channels"
        case .messages: "messages"
        }
    }

    /// The channel of a `messages` scope (the `channelId` query item); nil otherwise.
    public var wireChannelId: String? {
        if case .messages(let channelId) = self { channelId } else { nil }
    }

    /// Reads a scope from the query items of `GET /v1/changes`: `scope` (`all` when missing) and,
    /// for `messages`, `channelId`.
    public init(wireName: String?, channelId: String?) throws(WireDecodingError) {
        switch wireName ?? "all" {
        case "all": self = .all
        case "channels": self = .channels
        case "messages":
            guard let channelId, !channelId.isEmpty else {
                throw WireDecodingError(message: "scope \"messages\" needs a channelId")
            }
            self = .messages(channelId: channelId)
        case let other:
            throw WireDecodingError(message: "unknown scope \"\(other)\" (expected one of: all, channels, messages)")
        }
    }

    /// Reads `{"scope": "all"|"channels"|"messages", "channelId": ..}`.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        do {
            self = try ChangeScope(
                wireName: try c.decode(String.self, forKey: .scope), channelId: try c.decodeIfPresent(String.self, forKey: .channelId))
        } catch let error as WireDecodingError {
            throw DecodingError.dataCorruptedError(forKey: .scope, in: c, debugDescription: error.message)
        }
    }

    /// Writes `{"scope": .., "channelId": ..}` (no channelId but for `messages`).
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(wireName, forKey: .scope)
        try c.encodeIfPresent(wireChannelId, forKey: .channelId)
    }
}
