import LiveRepository
import LiveSocial

extension EmbeddedServer {
    /// The user ids ``seedDemoData()`` creates.
    public static let demoUserIds = ["ada", "alan", "grace", "linus", "margaret", "tim"]

    /// Fills the server with a small, realistic and deterministic dataset.
    ///
    /// Six users (``demoUserIds``) who follow each other; three communities with members, posts,
    /// comments, replies and reactions; four channels with members and a few dozen messages each:
    /// two public community channels (`general`, everyone; `random`, ada, alan, grace and linus,
    /// whose messages margaret and tim may read only after joining), a public live one (`keynote`,
    /// everyone) and a private conversation (`ada-alan`), which the other four users never see
    /// (see <doc:Authorization>). The history is backdated
    /// over the two days before the server's time, a minute or so apart. Every record goes through
    /// the change log, as any write does.
    ///
    /// A database is seeded once: the whole dataset is one transaction, and a later call (from
    /// this server, or another one on the same file, even at the same moment) does nothing.
    ///
    /// - Returns: whether this call seeded the data (false when it was there already).
    @discardableResult
    public func seedDemoData() throws -> Bool {
        try transaction { events in
            guard try !database.hasCounter(Self.demoDataMarker) else { return false }
            _ = try database.nextCounter(Self.demoDataMarker)
            try seedDemoData(into: &events)
            return true
        }
    }

    /// The counter whose presence says the demo data was seeded.
    private static let demoDataMarker = "demo-data"

    private func seedDemoData(into events: inout [SocialEvent]) throws {
        var random = SeededRandom(seed: 2024)
        var time = try timestamp() - 2 * 86_400
        func at(_ seconds: Double = 60) -> Double {
            time += seconds
            return time
        }
        func act(_ mutation: SocialMutation, _ userId: String) throws {
            try write(at: at(), into: &events) { try engine.apply(mutation, as: userId, in: &$0) }
        }
        let names = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Linus Torvalds", "Margaret Hamilton", "Tim Berners-Lee"]
        try write(at: at(), into: &events) { writer in
            for (id, name) in zip(Self.demoUserIds, names) {
                try writer.create(User(
                    id: id, displayName: name, about: "Hi, I'm \(name.split(separator: " ")[0]).",
                    avatarURL: "https://example.com/avatars/\(id).png", createdAt: writer.now, updatedAt: writer.now))
            }
        }
        for (index, follower) in Self.demoUserIds.enumerated() {
            for offset in 1...2 {
                try act(.follow(userId: Self.demoUserIds[(index + offset) % Self.demoUserIds.count]), follower)
            }
        }
        let communities = [
            ("swift", "Swift Developers", "Everything Swift: language, tools, server."),
            ("hiking", "Weekend Hikers", "Trails, gear and photos."),
            ("coffee", "Coffee Lovers", "Beans, grinders and brewing."),
        ]
        for (index, (id, name, about)) in communities.enumerated() {
            try write(at: at(), into: &events) { writer in
                try writer.create(Community(
                    id: id, displayName: name, about: about, isPublic: index != 2, createdAt: writer.now, updatedAt: writer.now))
                try engine.joinCommunity(id, as: Self.demoUserIds[index], role: .admin, in: &writer)
            }
            for userId in Self.demoUserIds where userId != Self.demoUserIds[index] && random.next() % 3 != 0 {
                try act(.joinCommunity(id: id), userId)
            }
            for _ in 0..<4 {
                let author = random.pick(Self.demoUserIds)
                let result = try write(at: at(600), into: &events) {
                    try engine.apply(.createPost(targetType: .community, targetId: id, text: random.pick(DemoPhrases.posts)), as: author, in: &$0)
                }
                guard let post = result.first(Post.self) else { continue }
                try seedDiscussion(on: post, random: &random, act: act)
            }
        }
        for userId in Self.demoUserIds.prefix(3) {
            try act(.createPost(targetType: .user, targetId: userId, text: random.pick(DemoPhrases.posts)), userId)
        }
        let channels: [(String, String, ChannelType, [String])] = [
            ("general", "General", .community, Self.demoUserIds),
            ("random", "Random", .community, Array(Self.demoUserIds.prefix(4))),
            ("keynote", "Keynote Live", .live, Self.demoUserIds),
            // Private: a conversation (see `AccessRules`).
            ("ada-alan", "Ada & Alan", .conversation, ["ada", "alan"]),
        ]
        for (id, name, type, members) in channels {
            try write(at: at(), into: &events) { writer in
                try writer.create(Channel(
                    id: id, displayName: name, type: type, lastActivityAt: writer.now, createdAt: writer.now, updatedAt: writer.now))
                for (index, userId) in members.enumerated() {
                    try engine.joinChannel(id, as: userId, role: index == 0 ? .admin : .member, in: &writer)
                }
            }
            for number in 0..<(24 + Int(random.next() % 16)) {
                let sender = random.pick(members)
                try act(.sendText(random.pick(DemoPhrases.messages), channelId: id, clientRequestId: "seed-\(id)-\(number)"), sender)
            }
        }
    }

    private func seedDiscussion(
        on post: Post, random: inout SeededRandom, act: (SocialMutation, String) throws -> Void
    ) throws {
        for _ in 0..<Int(random.next() % 4) {
            try act(.createComment(postId: post.id, parentId: nil, text: random.pick(DemoPhrases.comments)), random.pick(Self.demoUserIds))
        }
        // Ordered by id, as the demo data has always been seeded.
        let comments = try database.read(CacheQuery<Comment>([.equals("postId", .text(post.id))], orderBy: "id"))
        if let first = comments.first {
            try act(.createComment(postId: post.id, parentId: first.id, text: random.pick(DemoPhrases.comments)), random.pick(Self.demoUserIds))
        }
        for userId in Self.demoUserIds where random.next() % 2 == 0 {
            try act(.addReaction(targetType: .post, targetId: post.id, name: random.pick(DemoPhrases.reactions)), userId)
        }
    }

    /// Inserts `count` messages spread evenly over `channelCount` new channels, in one transaction; for benchmarks.
    ///
    /// Creates a sender user `bench-user` and public channels `bench-0`, `bench-1`..., each with a
    /// correct `messageCount` and last message, and with `bench-user` (their admin) and every user
    /// already on the server as members, so that they may read the messages. Records are written
    /// directly, with a change-log entry each but without real-time events; messages are a
    /// millisecond apart.
    ///
    /// - Returns: the ids of the channels.
    @discardableResult
    public func bulkLoadMessages(count: Int, channelCount: Int) throws -> [String] {
        precondition(channelCount > 0 && count >= 0, "bulk loading needs at least one channel")
        let channelIds = (0..<channelCount).map { "bench-\($0)" }
        try transaction { _ in
            let start = try timestamp()
            let readers = try ids(of: .user).filter { $0 != "bench-user" }
            try database.upsert(User(id: "bench-user", displayName: "Bench", createdAt: start, updatedAt: start))
            _ = try database.appendChange(ChangeRecord(SocialRecordKey(.user, "bench-user"), isRemoval: false, scope: nil))
            var channels = channelIds.map {
                Channel(
                    id: $0, displayName: $0, type: .community, memberCount: 1 + readers.count, lastActivityAt: start,
                    createdAt: start, updatedAt: start)
            }
            for index in 0..<count {
                let channel = index % channelCount
                let time = start + Double(index) * 0.001
                let text = "Message \(index)"
                let message = Message(
                    id: "bench-msg-\(index)", clientRequestId: "bench-\(index)", channelId: channelIds[channel],
                    userId: "bench-user", text: text, createdAt: time, updatedAt: time)
                try database.upsert(message)
                _ = try database.appendChange(ChangeRecord(
                    SocialRecordKey(.message, message.id), isRemoval: false,
                    scope: ChangeRecord.messageScope(message.channelId)))
                channels[channel].messageCount += 1
                channels[channel].lastMessageText = text
                channels[channel].lastMessageAt = time
                channels[channel].lastActivityAt = time
            }
            for channel in channels {
                try database.upsert(channel)
                _ = try database.appendChange(ChangeRecord(SocialRecordKey(.channel, channel.id), isRemoval: false, scope: nil))
                for userId in ["bench-user"] + readers {
                    let member = ChannelMember(
                        id: ChannelMember.makeID(channelId: channel.id, userId: userId), channelId: channel.id,
                        userId: userId, role: userId == "bench-user" ? .admin : .member, joinedAt: start)
                    try database.upsert(member)
                    _ = try database.appendChange(ChangeRecord(SocialRecordKey(.channelMember, member.id), isRemoval: false, scope: nil))
                }
            }
            try database.reserveTimestamps(through: start + Double(count) * 0.001)
        }
        return channelIds
    }
}
