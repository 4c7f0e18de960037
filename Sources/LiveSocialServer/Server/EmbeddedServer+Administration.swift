import LiveRepository
import LiveSocial

extension EmbeddedServer {
    /// Applies a mutation as `userId`, as if another user's client had sent it.
    ///
    /// It is a real write: it gets change-log entries and real-time events, but it skips the
    /// latency, connectivity and failure rules of client requests (rejection rules still apply).
    ///
    /// - Throws: `SocialAPIError` when the mutation is refused.
    @discardableResult
    public func perform(_ mutation: SocialMutation, as userId: String) throws -> SocialMutationResult {
        return try write { try engine.apply(mutation, as: userId, in: &$0) }
    }

    /// Runs `body` in a transaction with a writer, then publishes the events of what it wrote.
    @discardableResult
    func write(at timestamp: Double? = nil, _ body: (inout ServerWriter) throws -> Void) throws -> SocialMutationResult {
        var writer = ServerWriter(database: database, now: timestamp ?? self.timestamp())
        let result = try serve {
            try database.transaction {
                try body(&writer)
                return writer.result(sequence: try database.latestSequence)
            }
        }
        hub.publish(writer.events)
        return result
    }

    /// Creates a user (or replaces the user with that id).
    @discardableResult
    public func createUser(id: String, displayName: String, about: String = "", avatarURL: String? = nil) throws -> User {
        let now = timestamp()
        let user = User(
            id: id, displayName: displayName, about: about, avatarURL: avatarURL, createdAt: now, updatedAt: now)
        try write(at: now) { try $0.create(user) }
        return user
    }

    /// Creates a community with `ownerId` as its admin member.
    @discardableResult
    public func createCommunity(
        id: String, displayName: String, about: String = "", isPublic: Bool = true, ownerId: String
    ) throws -> Community {
        let now = timestamp()
        let community = Community(
            id: id, displayName: displayName, about: about, isPublic: isPublic, createdAt: now, updatedAt: now)
        let result = try write(at: now) { writer in
            try writer.create(community)
            try engine.joinCommunity(id, as: ownerId, role: .admin, in: &writer)
        }
        return result.first(Community.self) ?? community
    }

    /// Creates a channel with `memberIds` as members, the first one as its admin.
    @discardableResult
    public func createChannel(id: String, displayName: String, type: ChannelType, memberIds: [String]) throws -> Channel {
        let now = timestamp()
        let channel = Channel(
            id: id, displayName: displayName, type: type, lastActivityAt: now, createdAt: now, updatedAt: now)
        let result = try write(at: now) { writer in
            try writer.create(channel)
            for (index, userId) in memberIds.enumerated() {
                try engine.joinChannel(id, as: userId, role: index == 0 ? .admin : .member, in: &writer)
            }
        }
        return result.first(Channel.self) ?? channel
    }

    /// Bans a member from a channel: their membership becomes `.banned` and their messages are refused.
    ///
    /// - Throws: `SocialAPIError.notFound(_:)` when `userId` is not a member.
    public func ban(_ userId: String, fromChannel channelId: String) throws {
        try write { writer in
            var member = try engine.require(ChannelMember.self, ChannelMember.makeID(channelId: channelId, userId: userId))
            member.membership = .banned
            try writer.update(member)
        }
    }

    /// Soft-deletes a channel (an administrator's action).
    public func deleteChannel(_ id: String) throws {
        try write { writer in
            var channel = try engine.require(Channel.self, id)
            channel.isDeleted = true
            channel.updatedAt = writer.now
            try writer.update(channel)
        }
    }

    /// The server's copy of a record, for inspection; no latency or failure applies.
    public func record<Record: CacheRecord>(_ type: Record.Type, id: String) throws -> Record? {
        try database.load(type, id: id)
    }

    /// Every record a query lists, in its order; for inspection and tests.
    public func records<Record: CacheRecord>(_ query: SocialQuery<Record>) throws -> [Record] {
        try KeysetPage(query: query.cacheQuery).fetch(in: database.connection, after: nil, limit: Int(Int32.max)).records
    }

    /// The ids of every record of a kind, sorted; for inspection, tests and ``SimulatedActivity``.
    public func ids(of kind: SocialRecordKind, includeDeleted: Bool = false) throws -> [String] {
        let filter = kind.deletesSoftly && !includeDeleted ? "isDeleted = 0" : "1"
        return try database.connection.query("SELECT id FROM \(kind.table.name) WHERE \(filter) ORDER BY id") { $0.string(0) }
    }

    /// The ids of the channels `userId` is a member in good standing of, sorted.
    func channelIds(memberOf userId: String) throws -> [String] {
        let memberships = CacheQuery<ChannelMember>(
            [.equals("userId", .text(userId)), .equals("membership", .text(Membership.member.rawValue))],
            orderBy: "channelId")
        return try ChannelMember.read(memberships, from: database.connection).map(\.channelId)
    }

    /// The server's latest change sequence number; 0 before the first write.
    public func latestSequence() throws -> Int64 {
        try database.latestSequence
    }
}
