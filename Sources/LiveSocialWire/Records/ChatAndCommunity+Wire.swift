import LiveSocial

// The wire forms of the chat models (see Feed+Wire.swift for the conventions).

extension Channel: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, id, displayName, type, memberCount, messageCount, lastMessageText, lastMessageAt, lastActivityAt
        case createdAt, updatedAt, isDeleted
    }

    /// Reads a channel from its wire form.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try RecordKindCheck.check(.channel, in: c, key: .kind)
        self.init(
            id: try c.decode(String.self, forKey: .id), displayName: try c.decode(String.self, forKey: .displayName),
            type: try c.decodeEnum(ChannelType.self, forKey: .type),
            memberCount: try c.decode(Int.self, forKey: .memberCount), messageCount: try c.decode(Int.self, forKey: .messageCount),
            lastMessageText: try c.decodeIfPresent(String.self, forKey: .lastMessageText),
            lastMessageAt: try c.decodeIfPresent(Double.self, forKey: .lastMessageAt),
            lastActivityAt: try c.decode(Double.self, forKey: .lastActivityAt),
            createdAt: try c.decode(Double.self, forKey: .createdAt), updatedAt: try c.decode(Double.self, forKey: .updatedAt),
            isDeleted: try c.decode(Bool.self, forKey: .isDeleted))
    }

    /// Writes the channel's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try RecordKindCheck.write(.channel, to: &c, key: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(type.rawValue, forKey: .type)
        try c.encode(memberCount, forKey: .memberCount)
        try c.encode(messageCount, forKey: .messageCount)
        try c.encode(lastMessageText, forKey: .lastMessageText)
        try c.encode(lastMessageAt, forKey: .lastMessageAt)
        try c.encode(lastActivityAt, forKey: .lastActivityAt)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(isDeleted, forKey: .isDeleted)
    }
}

extension Message: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, id, clientRequestId, channelId, userId, type, text, parentId, reactionCount, createdAt, updatedAt
        case editedAt, isDeleted, metaArrays, reactions
    }

    /// Reads a message from its wire form; `metaArrays` and `reactions` may be left out when empty.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try RecordKindCheck.check(.message, in: c, key: .kind)
        self.init(
            id: try c.decode(String.self, forKey: .id), clientRequestId: try c.decode(String.self, forKey: .clientRequestId),
            channelId: try c.decode(String.self, forKey: .channelId), userId: try c.decode(String.self, forKey: .userId),
            type: try c.decodeEnum(MessageType.self, forKey: .type), text: try c.decode(String.self, forKey: .text),
            parentId: try c.decodeIfPresent(String.self, forKey: .parentId),
            reactionCount: try c.decode(Int.self, forKey: .reactionCount),
            createdAt: try c.decode(Double.self, forKey: .createdAt), updatedAt: try c.decode(Double.self, forKey: .updatedAt),
            editedAt: try c.decodeIfPresent(Double.self, forKey: .editedAt), isDeleted: try c.decode(Bool.self, forKey: .isDeleted),
            metaArrays: try c.decodeIfPresent([String: [String]].self, forKey: .metaArrays) ?? [:],
            reactions: try c.decodeIfPresent([MessageReaction].self, forKey: .reactions) ?? [])
    }

    /// Writes the message's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try RecordKindCheck.write(.message, to: &c, key: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(clientRequestId, forKey: .clientRequestId)
        try c.encode(channelId, forKey: .channelId)
        try c.encode(userId, forKey: .userId)
        try c.encode(type.rawValue, forKey: .type)
        try c.encode(text, forKey: .text)
        try c.encode(parentId, forKey: .parentId)
        try c.encode(reactionCount, forKey: .reactionCount)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(editedAt, forKey: .editedAt)
        try c.encode(isDeleted, forKey: .isDeleted)
        try c.encode(metaArrays, forKey: .metaArrays)
        try c.encode(reactions, forKey: .reactions)
    }
}

extension ChannelMember: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, id, channelId, userId, role, membership, joinedAt
    }

    /// Reads a channel membership from its wire form.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try RecordKindCheck.check(.channelMember, in: c, key: .kind)
        self.init(
            id: try c.decode(String.self, forKey: .id), channelId: try c.decode(String.self, forKey: .channelId),
            userId: try c.decode(String.self, forKey: .userId), role: try c.decodeEnum(MemberRole.self, forKey: .role),
            membership: try c.decodeEnum(Membership.self, forKey: .membership),
            joinedAt: try c.decode(Double.self, forKey: .joinedAt))
    }

    /// Writes the channel membership's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try RecordKindCheck.write(.channelMember, to: &c, key: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(channelId, forKey: .channelId)
        try c.encode(userId, forKey: .userId)
        try c.encode(role.rawValue, forKey: .role)
        try c.encode(membership.rawValue, forKey: .membership)
        try c.encode(joinedAt, forKey: .joinedAt)
    }
}

extension Community: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, id, displayName, about, isPublic, memberCount, postCount, createdAt, updatedAt, isDeleted
    }

    /// Reads a community from its wire form.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try RecordKindCheck.check(.community, in: c, key: .kind)
        self.init(
            id: try c.decode(String.self, forKey: .id), displayName: try c.decode(String.self, forKey: .displayName),
            about: try c.decode(String.self, forKey: .about), isPublic: try c.decode(Bool.self, forKey: .isPublic),
            memberCount: try c.decode(Int.self, forKey: .memberCount), postCount: try c.decode(Int.self, forKey: .postCount),
            createdAt: try c.decode(Double.self, forKey: .createdAt), updatedAt: try c.decode(Double.self, forKey: .updatedAt),
            isDeleted: try c.decode(Bool.self, forKey: .isDeleted))
    }

    /// Writes the community's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try RecordKindCheck.write(.community, to: &c, key: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(about, forKey: .about)
        try c.encode(isPublic, forKey: .isPublic)
        try c.encode(memberCount, forKey: .memberCount)
        try c.encode(postCount, forKey: .postCount)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(isDeleted, forKey: .isDeleted)
    }
}

extension CommunityMember: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, id, communityId, userId, role, joinedAt
    }

    /// Reads a community membership from its wire form.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try RecordKindCheck.check(.communityMember, in: c, key: .kind)
        self.init(
            id: try c.decode(String.self, forKey: .id), communityId: try c.decode(String.self, forKey: .communityId),
            userId: try c.decode(String.self, forKey: .userId), role: try c.decodeEnum(MemberRole.self, forKey: .role),
            joinedAt: try c.decode(Double.self, forKey: .joinedAt))
    }

    /// Writes the community membership's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try RecordKindCheck.write(.communityMember, to: &c, key: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(communityId, forKey: .communityId)
        try c.encode(userId, forKey: .userId)
        try c.encode(role.rawValue, forKey: .role)
        try c.encode(joinedAt, forKey: .joinedAt)
    }
}
