import LiveSocial

extension SocialRecord: WireCodable {
    private enum Keys: String, CodingKey { case kind }

    /// Reads any record from its wire form, choosing the model by its `"kind"` field.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        switch try c.decodeEnum(SocialRecordKind.self, forKey: .kind) {
        case .user: self = .user(try User(wireFrom: decoder))
        case .post: self = .post(try Post(wireFrom: decoder))
        case .comment: self = .comment(try Comment(wireFrom: decoder))
        case .reaction: self = .reaction(try Reaction(wireFrom: decoder))
        case .follow: self = .follow(try Follow(wireFrom: decoder))
        case .channel: self = .channel(try Channel(wireFrom: decoder))
        case .message: self = .message(try Message(wireFrom: decoder))
        case .channelMember: self = .channelMember(try ChannelMember(wireFrom: decoder))
        case .community: self = .community(try Community(wireFrom: decoder))
        case .communityMember: self = .communityMember(try CommunityMember(wireFrom: decoder))
        }
    }

    /// Writes the wrapped model's wire form (which names its kind).
    public func encodeWire(to encoder: any Encoder) throws {
        switch self {
        case .user(let value): try value.encodeWire(to: encoder)
        case .post(let value): try value.encodeWire(to: encoder)
        case .comment(let value): try value.encodeWire(to: encoder)
        case .reaction(let value): try value.encodeWire(to: encoder)
        case .follow(let value): try value.encodeWire(to: encoder)
        case .channel(let value): try value.encodeWire(to: encoder)
        case .message(let value): try value.encodeWire(to: encoder)
        case .channelMember(let value): try value.encodeWire(to: encoder)
        case .community(let value): try value.encodeWire(to: encoder)
        case .communityMember(let value): try value.encodeWire(to: encoder)
        }
    }
}
