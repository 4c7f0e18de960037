import LiveRepository

/// Any record of the social domain: one case per model.
///
/// Change logs, events and mutation results carry records of mixed kinds as this enum.
/// ``init(_:)`` wraps a model and ``record(as:)`` unwraps one generically.
public enum SocialRecord: Sendable, Hashable {
    /// A user.
    case user(User)
    /// A post.
    case post(Post)
    /// A comment.
    case comment(Comment)
    /// A reaction.
    case reaction(Reaction)
    /// A follow.
    case follow(Follow)
    /// A channel.
    case channel(Channel)
    /// A message.
    case message(Message)
    /// A channel membership.
    case channelMember(ChannelMember)
    /// A community.
    case community(Community)
    /// A community membership.
    case communityMember(CommunityMember)

    /// Wraps a model of the social domain; nil for any other type.
    public init?<Record: CacheRecord>(_ record: Record) {
        switch record {
        case let value as User: self = .user(value)
        case let value as Post: self = .post(value)
        case let value as Comment: self = .comment(value)
        case let value as Reaction: self = .reaction(value)
        case let value as Follow: self = .follow(value)
        case let value as Channel: self = .channel(value)
        case let value as Message: self = .message(value)
        case let value as ChannelMember: self = .channelMember(value)
        case let value as Community: self = .community(value)
        case let value as CommunityMember: self = .communityMember(value)
        default: return nil
        }
    }

    /// The wrapped model, type-erased.
    public var base: any CacheRecord {
        switch self {
        case .user(let value): value
        case .post(let value): value
        case .comment(let value): value
        case .reaction(let value): value
        case .follow(let value): value
        case .channel(let value): value
        case .message(let value): value
        case .channelMember(let value): value
        case .community(let value): value
        case .communityMember(let value): value
        }
    }

    /// The wrapped model if it is a `Record`, else nil.
    public func record<Record: CacheRecord>(as type: Record.Type = Record.self) -> Record? {
        base as? Record
    }

    /// The kind of the wrapped model.
    public var kind: SocialRecordKind {
        switch self {
        case .user: .user
        case .post: .post
        case .comment: .comment
        case .reaction: .reaction
        case .follow: .follow
        case .channel: .channel
        case .message: .message
        case .channelMember: .channelMember
        case .community: .community
        case .communityMember: .communityMember
        }
    }

    /// The wrapped model's id.
    public var id: String { base.id }

    /// The wrapped model's kind and id.
    public var key: SocialRecordKey { SocialRecordKey(kind, id) }
}
