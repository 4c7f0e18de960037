import LiveRepository
import LiveSocial

/// Who may see and change what on the server: the one copy of the authorization rules, checked
/// for every request of an ``EmbeddedServer/Connection`` and every mutation the ``MutationEngine``
/// applies (see <doc:Authorization>).
///
/// - A channel is private when it is a `ChannelType.conversation`; community and live channels
///   are public. A user *knows* a channel when it is public or when they have a membership row in
///   it (in good standing or banned). A private channel a user does not know answers as if it did
///   not exist: `SocialAPIError.notFound(_:)`, a nil fetch, nothing in lists, change logs or events.
/// - Only members in good standing read and write a channel's messages (and reactions to them);
///   a public channel's non-member gets `SocialAPIError.rejected(_:)` and may join it.
/// - Everything else (users, follows, communities, posts, comments and their reactions) is
///   readable by every signed-in user; only authors edit or delete their posts, comments and
///   messages (``MutationEngine/requireOwn(_:_:_:authorId:)``).
///
/// Reads the server database; use it from the server's isolation, as the database.
struct AccessRules {
    let database: any ServerStore

    /// Whether channels of `type` are private: known to their members only.
    static func isPrivate(_ type: ChannelType) -> Bool { type == .conversation }

    /// `userId`'s membership row in `channelId`, in good standing or banned; nil when none.
    func membership(of userId: String, in channelId: String) throws -> ChannelMember? {
        try database.load(ChannelMember.self, id: ChannelMember.makeID(channelId: channelId, userId: userId))
    }

    /// Whether `userId` is a member in good standing of `channelId`: reads and writes its messages.
    func isMember(_ userId: String, of channelId: String) throws -> Bool {
        try membership(of: userId, in: channelId)?.membership == .member
    }

    /// The channel when `userId` knows it: it exists, and is public or has a membership row of
    /// theirs. Nil otherwise, so that a private channel and a missing one look the same.
    func knownChannel(_ channelId: String, to userId: String) throws -> Channel? {
        guard let channel = try database.load(Channel.self, id: channelId) else { return nil }
        guard Self.isPrivate(channel.type) else { return channel }
        return try membership(of: userId, in: channelId) == nil ? nil : channel
    }

    /// The channel, when `userId` may read and write its messages.
    ///
    /// - Throws: `SocialAPIError.notFound(_:)` (the channel's key) when the user does not know
    ///   the channel; `SocialAPIError.rejected(_:)` when they are banned from it or, for a public
    ///   channel, not a member.
    @discardableResult
    func requireMessageAccess(_ channelId: String, for userId: String) throws -> Channel {
        guard let channel = try knownChannel(channelId, to: userId) else {
            throw SocialAPIError.notFound(SocialRecordKey(.channel, channelId))
        }
        switch try membership(of: userId, in: channelId)?.membership {
        case .member: return channel
        case .banned: throw SocialAPIError.rejected("\(userId) is banned from \(channelId)")
        case nil: throw SocialAPIError.rejected("\(userId) is not a member of \(channelId): join it to read and send its messages")
        }
    }

    /// The message, when `userId` may read it (and react to it, and, as its author, change it).
    ///
    /// - Throws: `SocialAPIError.notFound(_:)` (the message's key) when it does not exist or its
    ///   channel is unknown to the user; `SocialAPIError.rejected(_:)` as
    ///   ``requireMessageAccess(_:for:)``.
    func requireMessage(_ id: String, for userId: String) throws -> Message {
        let missing = SocialAPIError.notFound(SocialRecordKey(.message, id))
        guard let message = try database.load(Message.self, id: id) else { throw missing }
        do {
            try requireMessageAccess(message.channelId, for: userId)
        } catch SocialAPIError.notFound {
            throw missing
        }
        return message
    }

    // MARK: Reads

    /// Checks that `userId` may read the list `kind`, and returns the SQL condition (with its
    /// bindings) that leaves out of it what they may not see; nil when nothing is left out.
    ///
    /// - Throws: as ``requireMessageAccess(_:for:)`` for a channel's messages and for the
    ///   reactions to a message (`notFound` of the message for those); `notFound` of the channel
    ///   for the members of a channel the user does not know.
    func listFilter(_ kind: SocialQueryKind, for userId: String) throws -> StoreFilter? {
        switch kind {
        case .channels:
            // A private channel is listed to the users with a membership row in it.
            return StoreFilter(
                sql: "(type <> ? OR id IN (SELECT channelId FROM channel_members WHERE userId = ?))",
                bindings: [.text(ChannelType.conversation.rawValue), .text(userId)])
        case .messages(let channelId, _, _, _, _):
            try requireMessageAccess(channelId, for: userId)
        case .channelMembers(let channelId, _, _):
            guard try knownChannel(channelId, to: userId) != nil else {
                throw SocialAPIError.notFound(SocialRecordKey(.channel, channelId))
            }
        case .reactions(.message, let messageId, _):
            _ = try requireMessage(messageId, for: userId)
        case .userFeed, .postsByAuthor, .communityFeed, .comments, .reactions, .followers, .following,
             .communities, .communityMembers:
            break
        }
        return nil
    }

    /// `record` when `userId` may fetch it, nil when they may not know it exists.
    ///
    /// - Throws: `SocialAPIError.rejected(_:)` for a message of a public channel (or a reaction
    ///   to one) that the user does not belong to.
    func fetchable<Record: CacheRecord>(_ record: Record?, for userId: String) throws -> Record? {
        guard let record, let wrapped = SocialRecord(record) else { return record }
        do {
            switch wrapped {
            case .channel(let channel):
                return try knownChannel(channel.id, to: userId) == nil ? nil : record
            case .channelMember(let member):
                guard member.userId == userId else { return try knownChannel(member.channelId, to: userId) == nil ? nil : record }
            case .message(let message):
                try requireMessageAccess(message.channelId, for: userId)
            case .reaction(let reaction) where reaction.targetType == .message && reaction.userId != userId:
                _ = try requireMessage(reaction.targetId, for: userId)
            default:
                break
            }
        } catch SocialAPIError.notFound {
            return nil
        }
        return record
    }
}
