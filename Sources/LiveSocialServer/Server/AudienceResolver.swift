import LiveRepository
import LiveSocial

/// Works out the ``EventAudience`` of changes, with ``AccessRules``' visibility: the users who
/// may see a record after a change, from the memberships at that moment.
///
/// - a private channel, and its membership rows: the users with a membership row in it (in good
///   standing or banned), and the row's own user;
/// - a message, and a reaction to a message: the channel's members in good standing (and the
///   reaction's own user);
/// - a public channel, its membership rows, and every other record: everyone.
///
/// It remembers each channel's memberships it read, so make one per batch of changes (the
/// memberships must not change while it is used). Use it from the server's isolation.
struct AudienceResolver {
    let database: any ServerStore
    private var channels: [String: (isPrivate: Bool, rows: [String: Membership])?] = [:]
    private var messageChannels: [String: String?] = [:]

    init(database: any ServerStore) {
        self.database = database
    }

    /// The audience of each change event, in order; a removal's from the channel the change log
    /// keeps for it.
    mutating func audiences(of events: [SocialEvent]) throws -> [EventAudience] {
        try events.map { event in
            switch event {
            case .created(let record, _), .updated(let record, _):
                try audience(of: record)
            case .deleted(let key, let sequence):
                try audience(ofRemoval: key, channelId: database.loggedChannelId(sequence: sequence))
            case .connected, .disconnected:
                .everyone
            }
        }
    }

    /// Who may see `record` now.
    mutating func audience(of record: SocialRecord) throws -> EventAudience {
        switch record {
        case .channel(let channel):
            return try channelAudience(channel.id, adding: nil)
        case .channelMember(let member):
            return try channelAudience(member.channelId, adding: member.userId)
        case .message(let message):
            return try messageAudience(message.channelId, adding: nil)
        case .reaction(let reaction) where reaction.targetType == .message:
            guard let channelId = try channel(ofMessage: reaction.targetId) else { return .only([reaction.userId]) }
            return try messageAudience(channelId, adding: reaction.userId)
        case .user, .post, .comment, .reaction, .follow, .community, .communityMember:
            return .everyone
        }
    }

    /// Who may learn that the record with `key` was removed; `channelId` is the channel the
    /// change log holds for the removal (nil in files written before it did).
    mutating func audience(ofRemoval key: SocialRecordKey, channelId: String?) throws -> EventAudience {
        switch key.kind {
        case .channelMember:
            // `channelId:userId`; without the logged channel, the last colon splits it.
            let channel = channelId ?? key.id.lastIndex(of: ":").map { String(key.id[..<$0]) } ?? key.id
            let userId = key.id.hasPrefix(channel + ":") ? String(key.id.dropFirst(channel.count + 1)) : nil
            return try channelAudience(channel, adding: userId)
        case .reaction:
            guard let channelId else { return .everyone }
            return try messageAudience(channelId, adding: nil)
        case .channel:
            return try channelAudience(channelId ?? key.id, adding: nil)
        case .message:
            guard let channelId else { return .only([]) }
            return try messageAudience(channelId, adding: nil)
        case .user, .post, .comment, .follow, .community, .communityMember:
            return .everyone
        }
    }

    /// Everyone for a public channel; for a private one, the users with a membership row and `userId`.
    private mutating func channelAudience(_ channelId: String, adding userId: String?) throws -> EventAudience {
        guard let channel = try memberships(of: channelId) else { return userId.map { .only([$0]) } ?? .only([]) }
        guard channel.isPrivate else { return .everyone }
        var users = Set(channel.rows.keys)
        if let userId { users.insert(userId) }
        return .only(users)
    }

    /// The channel's members in good standing, and `userId`.
    private mutating func messageAudience(_ channelId: String, adding userId: String?) throws -> EventAudience {
        let rows = try memberships(of: channelId)?.rows ?? [:]
        var users = Set(rows.filter { $0.value == .member }.keys)
        if let userId { users.insert(userId) }
        return .only(users)
    }

    /// Whether the channel is private, and its membership rows by user; nil when it does not exist.
    private mutating func memberships(of channelId: String) throws -> (isPrivate: Bool, rows: [String: Membership])? {
        if let known = channels[channelId] { return known }
        var result: (isPrivate: Bool, rows: [String: Membership])?
        if let channel = try database.load(Channel.self, id: channelId) {
            // Two columns rather than whole records: a busy channel has many members, and every
            // message sent in it needs them.
            let rows = try database.channelMemberships(of: channelId).map { row in
                guard let membership = Membership(rawValue: row.membership) else {
                    throw SQLiteError.mismatch("unknown membership '\(row.membership)' in \(channelId)")
                }
                return (row.userId, membership)
            }
            result = (AccessRules.isPrivate(channel.type), Dictionary(rows) { $1 })
        }
        channels[channelId] = result
        return result
    }

    private mutating func channel(ofMessage messageId: String) throws -> String? {
        if let known = messageChannels[messageId] { return known }
        let channelId = try database.load(Message.self, id: messageId)?.channelId
        messageChannels[messageId] = channelId
        return channelId
    }
}
