import LiveRepository

/// The kinds of records of the social domain: one per model.
///
/// Change logs and events name a record by its kind and id; ``recordType`` and ``table`` lead
/// from a kind to its model.
public enum SocialRecordKind: String, Sendable, Hashable, CaseIterable {
    /// ``User``.
    case user
    /// ``Post``.
    case post
    /// ``Comment``.
    case comment
    /// ``Reaction``.
    case reaction
    /// ``Follow``.
    case follow
    /// ``Channel``.
    case channel
    /// ``Message``.
    case message
    /// ``ChannelMember``.
    case channelMember
    /// ``Community``.
    case community
    /// ``CommunityMember``.
    case communityMember

    /// The model type of the kind.
    public var recordType: any CacheRecord.Type {
        switch self {
        case .user: User.self
        case .post: Post.self
        case .comment: Comment.self
        case .reaction: Reaction.self
        case .follow: Follow.self
        case .channel: Channel.self
        case .message: Message.self
        case .channelMember: ChannelMember.self
        case .community: Community.self
        case .communityMember: CommunityMember.self
        }
    }

    /// The table of the kind's model.
    public var table: RecordTable { recordType.table }

    /// The kind whose model is `type`, or nil for a type outside the social domain.
    public init?<Record: CacheRecord>(of type: Record.Type) {
        guard let kind = Self.allCases.first(where: { ObjectIdentifier($0.recordType) == ObjectIdentifier(type) }) else { return nil }
        self = kind
    }

    /// Whether deleting a record of the kind is soft (`isDeleted` set, the record kept) rather
    /// than removing it: true for users, posts, comments, channels, messages and communities.
    public var deletesSoftly: Bool {
        switch self {
        case .user, .post, .comment, .channel, .message, .community: true
        case .reaction, .follow, .channelMember, .communityMember: false
        }
    }
}
