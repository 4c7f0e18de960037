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

    /// Runs `body` in a transaction with a writer whose time is the next timestamp, then
    /// publishes the events of what it wrote (see `transaction(_:)`).
    @discardableResult
    func write(_ body: (inout ServerWriter) throws -> Void) throws -> SocialMutationResult {
        try transaction { events in try write(at: try timestamp(), into: &events, body) }
    }

    /// Runs `body` with a writer at `timestamp` inside an open transaction, adding the events of
    /// what it wrote to `events`.
    @discardableResult
    func write(
        at timestamp: Double, into events: inout [SocialEvent], _ body: (inout ServerWriter) throws -> Void
    ) throws -> SocialMutationResult {
        var writer = ServerWriter(database: database, now: timestamp)
        try body(&writer)
        events += writer.events
        return writer.result(sequence: try database.latestSequence())
    }

    /// Creates a user (or replaces the user with that id).
    @discardableResult
    public func createUser(id: String, displayName: String, about: String = "", avatarURL: String? = nil) throws -> User {
        let result = try write { writer in
            try writer.create(User(
                id: id, displayName: displayName, about: about, avatarURL: avatarURL,
                createdAt: writer.now, updatedAt: writer.now))
        }
        guard let user = result.first(User.self) else { preconditionFailure("a created user is in the answer") }
        return user
    }

    /// Creates a community with `ownerId` as its admin member.
    @discardableResult
    public func createCommunity(
        id: String, displayName: String, about: String = "", isPublic: Bool = true, ownerId: String
    ) throws -> Community {
        let result = try write { writer in
            try writer.create(Community(
                id: id, displayName: displayName, about: about, isPublic: isPublic,
                createdAt: writer.now, updatedAt: writer.now))
            try engine.joinCommunity(id, as: ownerId, role: .admin, in: &writer)
        }
        guard let community = result.first(Community.self) else { preconditionFailure("a created community is in the answer") }
        return community
    }

    /// Creates a channel with `memberIds` as members, the first one as its admin.
    @discardableResult
    public func createChannel(id: String, displayName: String, type: ChannelType, memberIds: [String]) throws -> Channel {
        let result = try write { writer in
            try writer.create(Channel(
                id: id, displayName: displayName, type: type, lastActivityAt: writer.now,
                createdAt: writer.now, updatedAt: writer.now))
            for (index, userId) in memberIds.enumerated() {
                try engine.joinChannel(id, as: userId, role: index == 0 ? .admin : .member, in: &writer)
            }
        }
        guard let channel = result.first(Channel.self) else { preconditionFailure("a created channel is in the answer") }
        return channel
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
        try database.read(query.cacheQuery)
    }

    /// The ids of every record of a kind, sorted; for inspection, tests and ``SimulatedActivity``.
    public func ids(of kind: SocialRecordKind, includeDeleted: Bool = false) throws -> [String] {
        func ids<Record: CacheRecord>(_ type: Record.Type) throws -> [String] {
            let predicates: [CachePredicate] = kind.deletesSoftly && !includeDeleted ? [.equals("isDeleted", .int(0))] : []
            return try database.read(CacheQuery<Record>(predicates, orderBy: "id")).map(\.id)
        }
        return try ids(kind.recordType)
    }

    /// The ids of the channels `userId` is a member in good standing of, sorted.
    func channelIds(memberOf userId: String) throws -> [String] {
        let memberships = CacheQuery<ChannelMember>(
            [.equals("userId", .text(userId)), .equals("membership", .text(Membership.member.rawValue))],
            orderBy: "channelId")
        return try database.read(memberships).map(\.channelId)
    }

    /// The server's latest change sequence number; 0 before the first write.
    public func latestSequence() throws -> Int64 {
        try database.latestSequence()
    }
}
