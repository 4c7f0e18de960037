import LiveSocial

/// Other users' activity on an ``EmbeddedServer``: a random action every so often, for demos.
///
/// Each ``step()`` picks a user and an action with a seeded random generator: send a message
/// in a channel the user belongs to (most often), post in a community, comment on a post,
/// toggle a reaction, or toggle a follow. The same seed on the same data gives the same actions.
/// ``run()`` steps every ``interval`` of the server's clock until its task is cancelled.
///
/// ```swift
/// let activity = SimulatedActivity(server: server, seed: 7, interval: .seconds(2))
/// let task = Task { await activity.run() }
/// // ...
/// task.cancel()
/// ```
public actor SimulatedActivity {
    /// The server acted on.
    public let server: EmbeddedServer
    /// The clock time between two actions.
    public let interval: Duration
    /// The users who act; nil for every user on the server.
    public let userIds: [String]?
    private var random: SeededRandom
    /// How many actions have been performed.
    public private(set) var actionCount = 0

    /// Creates an activity; nothing happens until ``run()`` or ``step()``.
    ///
    /// - Parameters:
    ///   - server: the server the actions are performed on, as its users.
    ///   - seed: the random seed; the same seed gives the same actions.
    ///   - interval: the clock time between two actions in ``run()``.
    ///   - userIds: the users who act; nil for every user on the server.
    public init(server: EmbeddedServer, seed: UInt64, interval: Duration = .seconds(2), userIds: [String]? = nil) {
        self.server = server
        self.interval = interval
        self.userIds = userIds
        self.random = SeededRandom(seed: seed)
    }

    /// Performs an action every ``interval`` of the server's clock until the task is cancelled.
    ///
    /// Actions the server refuses (a rejection rule, say) are skipped.
    public func run() async {
        while !Task.isCancelled {
            do {
                try await server.clock.sleep(for: interval)
            } catch {
                return
            }
            _ = try? await step()
        }
    }

    /// Performs one random action and returns it with the acting user, or nil when there is nobody to act.
    ///
    /// - Throws: `SocialAPIError` when the server refuses the action.
    @discardableResult
    public func step() async throws -> (userId: String, mutation: SocialMutation)? {
        var users = userIds ?? []
        if userIds == nil { users = try await server.ids(of: .user) }
        guard !users.isEmpty else { return nil }
        let userId = random.pick(users)
        let mutation = try await chooseAction(for: userId, among: users)
        try await server.perform(mutation, as: userId)
        actionCount += 1
        return (userId, mutation)
    }

    private func chooseAction(for userId: String, among users: [String]) async throws -> SocialMutation {
        let roll = Int(random.next() % 100)
        let channels = try await server.channelIds(memberOf: userId)
        let posts = try await server.ids(of: .post)
        if roll < 55, !channels.isEmpty {
            let channelId = random.pick(channels)
            return .sendText(random.pick(DemoPhrases.messages), channelId: channelId, clientRequestId: "sim-\(random.next())")
        }
        if roll < 65, let community = try await server.ids(of: .community).randomElement(using: &random) {
            return .createPost(targetType: .community, targetId: community, text: random.pick(DemoPhrases.posts))
        }
        if roll < 80, !posts.isEmpty {
            return .createComment(postId: random.pick(posts), parentId: nil, text: random.pick(DemoPhrases.comments))
        }
        if roll < 92, !posts.isEmpty {
            let postId = random.pick(posts)
            let name = random.pick(DemoPhrases.reactions)
            let id = Reaction.makeID(targetType: .post, targetId: postId, userId: userId, name: name)
            let exists = try await server.record(Reaction.self, id: id) != nil
            return exists
                ? .removeReaction(targetType: .post, targetId: postId, name: name)
                : .addReaction(targetType: .post, targetId: postId, name: name)
        }
        let others = users.filter { $0 != userId }
        guard let other = others.randomElement(using: &random) else {
            return .updateUser(displayName: nil, about: random.pick(DemoPhrases.comments), avatarURL: nil)
        }
        let following = try await server.record(Follow.self, id: Follow.makeID(followerId: userId, followeeId: other)) != nil
        return following ? .unfollow(userId: other) : .follow(userId: other)
    }
}
