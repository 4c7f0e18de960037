import LiveSocial

// The wire forms of the feed models. A record's wire form is its properties plus `"kind"`;
// `syncState` is the client cache's own business and is not sent: a record read from the wire
// is the server's copy, `.synced`. Optional properties are written as `null`.

extension User: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, id, displayName, about, avatarURL, followerCount, followingCount, createdAt, updatedAt, isDeleted
    }

    /// Reads a user from its wire form.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try RecordKindCheck.check(.user, in: c, key: .kind)
        self.init(
            id: try c.decode(String.self, forKey: .id), displayName: try c.decode(String.self, forKey: .displayName),
            about: try c.decode(String.self, forKey: .about), avatarURL: try c.decodeIfPresent(String.self, forKey: .avatarURL),
            followerCount: try c.decode(Int.self, forKey: .followerCount),
            followingCount: try c.decode(Int.self, forKey: .followingCount),
            createdAt: try c.decode(Double.self, forKey: .createdAt), updatedAt: try c.decode(Double.self, forKey: .updatedAt),
            isDeleted: try c.decode(Bool.self, forKey: .isDeleted))
    }

    /// Writes the user's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try RecordKindCheck.write(.user, to: &c, key: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(about, forKey: .about)
        try c.encode(avatarURL, forKey: .avatarURL)
        try c.encode(followerCount, forKey: .followerCount)
        try c.encode(followingCount, forKey: .followingCount)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(isDeleted, forKey: .isDeleted)
    }
}

extension Post: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, id, authorId, targetType, targetId, text, commentCount, reactionCount, createdAt, updatedAt, isDeleted
    }

    /// Reads a post from its wire form.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try RecordKindCheck.check(.post, in: c, key: .kind)
        self.init(
            id: try c.decode(String.self, forKey: .id), authorId: try c.decode(String.self, forKey: .authorId),
            targetType: try c.decodeEnum(FeedTargetType.self, forKey: .targetType),
            targetId: try c.decode(String.self, forKey: .targetId), text: try c.decode(String.self, forKey: .text),
            commentCount: try c.decode(Int.self, forKey: .commentCount),
            reactionCount: try c.decode(Int.self, forKey: .reactionCount),
            createdAt: try c.decode(Double.self, forKey: .createdAt), updatedAt: try c.decode(Double.self, forKey: .updatedAt),
            isDeleted: try c.decode(Bool.self, forKey: .isDeleted))
    }

    /// Writes the post's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try RecordKindCheck.write(.post, to: &c, key: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(authorId, forKey: .authorId)
        try c.encode(targetType.rawValue, forKey: .targetType)
        try c.encode(targetId, forKey: .targetId)
        try c.encode(text, forKey: .text)
        try c.encode(commentCount, forKey: .commentCount)
        try c.encode(reactionCount, forKey: .reactionCount)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(isDeleted, forKey: .isDeleted)
    }
}

extension Comment: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, id, postId, parentId, authorId, text, replyCount, reactionCount, createdAt, updatedAt, isDeleted
    }

    /// Reads a comment from its wire form.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try RecordKindCheck.check(.comment, in: c, key: .kind)
        self.init(
            id: try c.decode(String.self, forKey: .id), postId: try c.decode(String.self, forKey: .postId),
            parentId: try c.decodeIfPresent(String.self, forKey: .parentId),
            authorId: try c.decode(String.self, forKey: .authorId), text: try c.decode(String.self, forKey: .text),
            replyCount: try c.decode(Int.self, forKey: .replyCount), reactionCount: try c.decode(Int.self, forKey: .reactionCount),
            createdAt: try c.decode(Double.self, forKey: .createdAt), updatedAt: try c.decode(Double.self, forKey: .updatedAt),
            isDeleted: try c.decode(Bool.self, forKey: .isDeleted))
    }

    /// Writes the comment's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try RecordKindCheck.write(.comment, to: &c, key: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(postId, forKey: .postId)
        try c.encode(parentId, forKey: .parentId)
        try c.encode(authorId, forKey: .authorId)
        try c.encode(text, forKey: .text)
        try c.encode(replyCount, forKey: .replyCount)
        try c.encode(reactionCount, forKey: .reactionCount)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(isDeleted, forKey: .isDeleted)
    }
}

extension Reaction: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, id, targetType, targetId, userId, name, createdAt
    }

    /// Reads a reaction from its wire form.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try RecordKindCheck.check(.reaction, in: c, key: .kind)
        self.init(
            id: try c.decode(String.self, forKey: .id), targetType: try c.decodeEnum(ReactionTargetType.self, forKey: .targetType),
            targetId: try c.decode(String.self, forKey: .targetId), userId: try c.decode(String.self, forKey: .userId),
            name: try c.decode(String.self, forKey: .name), createdAt: try c.decode(Double.self, forKey: .createdAt))
    }

    /// Writes the reaction's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try RecordKindCheck.write(.reaction, to: &c, key: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(targetType.rawValue, forKey: .targetType)
        try c.encode(targetId, forKey: .targetId)
        try c.encode(userId, forKey: .userId)
        try c.encode(name, forKey: .name)
        try c.encode(createdAt, forKey: .createdAt)
    }
}

extension Follow: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, id, followerId, followeeId, status, createdAt
    }

    /// Reads a follow from its wire form.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try RecordKindCheck.check(.follow, in: c, key: .kind)
        self.init(
            id: try c.decode(String.self, forKey: .id), followerId: try c.decode(String.self, forKey: .followerId),
            followeeId: try c.decode(String.self, forKey: .followeeId), status: try c.decodeEnum(FollowStatus.self, forKey: .status),
            createdAt: try c.decode(Double.self, forKey: .createdAt))
    }

    /// Writes the follow's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try RecordKindCheck.write(.follow, to: &c, key: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(followerId, forKey: .followerId)
        try c.encode(followeeId, forKey: .followeeId)
        try c.encode(status.rawValue, forKey: .status)
        try c.encode(createdAt, forKey: .createdAt)
    }
}
