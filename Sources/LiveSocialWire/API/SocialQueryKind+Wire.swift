import LiveSocial

extension SocialQueryKind: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, userId, authorId, communityId, postId, parentId, newestFirst, includeDeleted, targetType, targetId, name
        case status, types, channelId, senderIds, roles, memberships, publicOnly, sortedBy
    }

    /// The name of the kind in its wire form's `"kind"` field, such as `messages`.
    public var wireName: String {
        switch self {
        case .userFeed: "userFeed"
        case .postsByAuthor: "postsByAuthor"
        case .communityFeed: "communityFeed"
        case .comments: "comments"
        case .reactions: "reactions"
        case .followers: "followers"
        case .following: "following"
        case .channels: "channels"
        case .messages: "messages"
        case .channelMembers: "channelMembers"
        case .communities: "communities"
        case .communityMembers: "communityMembers"
        }
    }

    /// Every wire name, for error messages and documentation.
    public static let wireNames = [
        "userFeed", "postsByAuthor", "communityFeed", "comments", "reactions", "followers", "following", "channels",
        "messages", "channelMembers", "communities", "communityMembers",
    ]

    /// Reads a query kind: `"kind"` and the kind's parameters by their names. Sets are lists,
    /// `null` (or missing) for "any value"; flags missing from the body take the defaults of the
    /// `SocialQuery` factories (not deleted, newest first for messages, oldest first for comments).
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        func text(_ key: Keys) throws -> String { try c.decode(String.self, forKey: key) }
        func flag(_ key: Keys, _ missing: Bool = false) throws -> Bool { try c.decodeIfPresent(Bool.self, forKey: key) ?? missing }
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "userFeed": self = .userFeed(userId: try text(.userId), includeDeleted: try flag(.includeDeleted))
        case "postsByAuthor": self = .postsByAuthor(authorId: try text(.authorId), includeDeleted: try flag(.includeDeleted))
        case "communityFeed": self = .communityFeed(communityId: try text(.communityId), includeDeleted: try flag(.includeDeleted))
        case "comments":
            self = .comments(
                postId: try text(.postId), parentId: try c.decodeIfPresent(String.self, forKey: .parentId),
                newestFirst: try flag(.newestFirst), includeDeleted: try flag(.includeDeleted))
        case "reactions":
            self = .reactions(
                targetType: try c.decodeEnum(ReactionTargetType.self, forKey: .targetType), targetId: try text(.targetId),
                name: try c.decodeIfPresent(String.self, forKey: .name))
        case "followers": self = .followers(userId: try text(.userId), status: try c.decodeEnumIfPresent(FollowStatus.self, forKey: .status))
        case "following": self = .following(userId: try text(.userId), status: try c.decodeEnumIfPresent(FollowStatus.self, forKey: .status))
        case "channels": self = .channels(types: try c.decodeSet(ChannelType.self, forKey: .types), includeDeleted: try flag(.includeDeleted))
        case "messages":
            self = .messages(
                channelId: try text(.channelId), types: try c.decodeSet(MessageType.self, forKey: .types),
                senderIds: try c.decodeIfPresent([String].self, forKey: .senderIds).map(Set.init),
                includeDeleted: try flag(.includeDeleted), newestFirst: try flag(.newestFirst, true))
        case "channelMembers":
            self = .channelMembers(
                channelId: try text(.channelId), roles: try c.decodeSet(MemberRole.self, forKey: .roles),
                memberships: try c.decodeSet(Membership.self, forKey: .memberships))
        case "communities":
            self = .communities(
                publicOnly: try flag(.publicOnly), includeDeleted: try flag(.includeDeleted),
                sortedBy: try c.decodeEnumIfPresent(CommunitySortOrder.self, forKey: .sortedBy) ?? .displayName)
        case "communityMembers":
            self = .communityMembers(communityId: try text(.communityId), roles: try c.decodeSet(MemberRole.self, forKey: .roles))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription: "unknown query kind \"\(kind)\" (expected one of: \(Self.wireNames.joined(separator: ", ")))")
        }
    }

    /// Writes the query kind's wire form; sets are written as sorted lists.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(wireName, forKey: .kind)
        switch self {
        case .userFeed(let userId, let includeDeleted):
            try c.encode(userId, forKey: .userId)
            try c.encode(includeDeleted, forKey: .includeDeleted)
        case .postsByAuthor(let authorId, let includeDeleted):
            try c.encode(authorId, forKey: .authorId)
            try c.encode(includeDeleted, forKey: .includeDeleted)
        case .communityFeed(let communityId, let includeDeleted):
            try c.encode(communityId, forKey: .communityId)
            try c.encode(includeDeleted, forKey: .includeDeleted)
        case .comments(let postId, let parentId, let newestFirst, let includeDeleted):
            try c.encode(postId, forKey: .postId)
            try c.encode(parentId, forKey: .parentId)
            try c.encode(newestFirst, forKey: .newestFirst)
            try c.encode(includeDeleted, forKey: .includeDeleted)
        case .reactions(let targetType, let targetId, let name):
            try c.encode(targetType.rawValue, forKey: .targetType)
            try c.encode(targetId, forKey: .targetId)
            try c.encode(name, forKey: .name)
        case .followers(let userId, let status), .following(let userId, let status):
            try c.encode(userId, forKey: .userId)
            try c.encode(status?.rawValue, forKey: .status)
        case .channels(let types, let includeDeleted):
            try c.encodeSorted(types, forKey: .types)
            try c.encode(includeDeleted, forKey: .includeDeleted)
        case .messages(let channelId, let types, let senderIds, let includeDeleted, let newestFirst):
            try c.encode(channelId, forKey: .channelId)
            try c.encodeSorted(types, forKey: .types)
            try c.encodeSorted(senderIds, forKey: .senderIds)
            try c.encode(includeDeleted, forKey: .includeDeleted)
            try c.encode(newestFirst, forKey: .newestFirst)
        case .channelMembers(let channelId, let roles, let memberships):
            try c.encode(channelId, forKey: .channelId)
            try c.encodeSorted(roles, forKey: .roles)
            try c.encodeSorted(memberships, forKey: .memberships)
        case .communities(let publicOnly, let includeDeleted, let order):
            try c.encode(publicOnly, forKey: .publicOnly)
            try c.encode(includeDeleted, forKey: .includeDeleted)
            try c.encode(order.rawValue, forKey: .sortedBy)
        case .communityMembers(let communityId, let roles):
            try c.encode(communityId, forKey: .communityId)
            try c.encodeSorted(roles, forKey: .roles)
        }
    }
}
