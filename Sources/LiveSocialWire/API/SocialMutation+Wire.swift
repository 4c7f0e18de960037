import LiveSocial

extension SocialMutation: WireCodable {
    private enum Keys: String, CodingKey {
        case kind, targetType, targetId, text, id, postId, parentId, name, userId, channelId, clientRequestId, type, metaArrays
        case displayName, about, avatarURL
    }

    /// The name of the mutation in its wire form's `"kind"` field: the case's name, such as `sendMessage`.
    public var wireName: String {
        switch self {
        case .createPost: "createPost"
        case .updatePost: "updatePost"
        case .deletePost: "deletePost"
        case .createComment: "createComment"
        case .updateComment: "updateComment"
        case .deleteComment: "deleteComment"
        case .addReaction: "addReaction"
        case .removeReaction: "removeReaction"
        case .follow: "follow"
        case .unfollow: "unfollow"
        case .sendMessage: "sendMessage"
        case .editMessage: "editMessage"
        case .deleteMessage: "deleteMessage"
        case .joinChannel: "joinChannel"
        case .leaveChannel: "leaveChannel"
        case .joinCommunity: "joinCommunity"
        case .leaveCommunity: "leaveCommunity"
        case .updateUser: "updateUser"
        }
    }

    /// Every wire name, for error messages and documentation.
    public static let wireNames = [
        "createPost", "updatePost", "deletePost", "createComment", "updateComment", "deleteComment", "addReaction",
        "removeReaction", "follow", "unfollow", "sendMessage", "editMessage", "deleteMessage", "joinChannel", "leaveChannel",
        "joinCommunity", "leaveCommunity", "updateUser",
    ]

    /// The client request id of a `sendMessage`, nil for every other mutation: a client sends it as
    /// the mutation's idempotency key.
    public var clientRequestId: String? {
        if case .sendMessage(_, let clientRequestId, _, _, _, _) = self { clientRequestId } else { nil }
    }

    /// Reads a mutation: `"kind"` and the case's parameters by their names. Optional parameters
    /// (`parentId`, `metaArrays`, `updateUser`'s fields) may be `null` or left out.
    public init(wireFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        func text(_ key: Keys) throws -> String { try c.decode(String.self, forKey: key) }
        func optional(_ key: Keys) throws -> String? { try c.decodeIfPresent(String.self, forKey: key) }
        func reactionTarget() throws -> ReactionTargetType { try c.decodeEnum(ReactionTargetType.self, forKey: .targetType) }
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "createPost":
            self = .createPost(
                targetType: try c.decodeEnum(FeedTargetType.self, forKey: .targetType), targetId: try text(.targetId),
                text: try text(.text))
        case "updatePost": self = .updatePost(id: try text(.id), text: try text(.text))
        case "deletePost": self = .deletePost(id: try text(.id))
        case "createComment": self = .createComment(postId: try text(.postId), parentId: try optional(.parentId), text: try text(.text))
        case "updateComment": self = .updateComment(id: try text(.id), text: try text(.text))
        case "deleteComment": self = .deleteComment(id: try text(.id))
        case "addReaction": self = .addReaction(targetType: try reactionTarget(), targetId: try text(.targetId), name: try text(.name))
        case "removeReaction":
            self = .removeReaction(targetType: try reactionTarget(), targetId: try text(.targetId), name: try text(.name))
        case "follow": self = .follow(userId: try text(.userId))
        case "unfollow": self = .unfollow(userId: try text(.userId))
        case "sendMessage":
            self = .sendMessage(
                channelId: try text(.channelId), clientRequestId: try text(.clientRequestId),
                type: try c.decodeEnum(MessageType.self, forKey: .type), text: try text(.text), parentId: try optional(.parentId),
                metaArrays: try c.decodeIfPresent([String: [String]].self, forKey: .metaArrays) ?? [:])
        case "editMessage": self = .editMessage(id: try text(.id), text: try text(.text))
        case "deleteMessage": self = .deleteMessage(id: try text(.id))
        case "joinChannel": self = .joinChannel(id: try text(.id))
        case "leaveChannel": self = .leaveChannel(id: try text(.id))
        case "joinCommunity": self = .joinCommunity(id: try text(.id))
        case "leaveCommunity": self = .leaveCommunity(id: try text(.id))
        case "updateUser":
            self = .updateUser(displayName: try optional(.displayName), about: try optional(.about), avatarURL: try optional(.avatarURL))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription: "unknown mutation kind \"\(kind)\" (expected one of: \(Self.wireNames.joined(separator: ", ")))")
        }
    }

    /// Writes the mutation's wire form.
    public func encodeWire(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(wireName, forKey: .kind)
        switch self {
        case .createPost(let targetType, let targetId, let text):
            try c.encode(targetType.rawValue, forKey: .targetType)
            try c.encode(targetId, forKey: .targetId)
            try c.encode(text, forKey: .text)
        case .updatePost(let id, let text), .updateComment(let id, let text), .editMessage(let id, let text):
            try c.encode(id, forKey: .id)
            try c.encode(text, forKey: .text)
        case .deletePost(let id), .deleteComment(let id), .deleteMessage(let id), .joinChannel(let id), .leaveChannel(let id),
            .joinCommunity(let id), .leaveCommunity(let id):
            try c.encode(id, forKey: .id)
        case .createComment(let postId, let parentId, let text):
            try c.encode(postId, forKey: .postId)
            try c.encode(parentId, forKey: .parentId)
            try c.encode(text, forKey: .text)
        case .addReaction(let targetType, let targetId, let name), .removeReaction(let targetType, let targetId, let name):
            try c.encode(targetType.rawValue, forKey: .targetType)
            try c.encode(targetId, forKey: .targetId)
            try c.encode(name, forKey: .name)
        case .follow(let userId), .unfollow(let userId):
            try c.encode(userId, forKey: .userId)
        case .sendMessage(let channelId, let clientRequestId, let type, let text, let parentId, let metaArrays):
            try c.encode(channelId, forKey: .channelId)
            try c.encode(clientRequestId, forKey: .clientRequestId)
            try c.encode(type.rawValue, forKey: .type)
            try c.encode(text, forKey: .text)
            try c.encode(parentId, forKey: .parentId)
            try c.encode(metaArrays, forKey: .metaArrays)
        case .updateUser(let displayName, let about, let avatarURL):
            try c.encode(displayName, forKey: .displayName)
            try c.encode(about, forKey: .about)
            try c.encode(avatarURL, forKey: .avatarURL)
        }
    }
}
