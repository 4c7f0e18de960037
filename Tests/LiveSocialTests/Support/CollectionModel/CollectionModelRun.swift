import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

/// One seeded sequence of the `LiveCollection` model check: a client over a cache (in memory or
/// a file shared with a second client), talking to an embedded server through a ``FaultyAPI``,
/// showing one ``CollectionSubject``; random steps, and after each one, once everything has
/// settled, a comparison with the ``CollectionReference``.
@MainActor
final class CollectionModelRun {
    struct Failure: Error { var message: String }

    let seed: UInt64
    let subject: CollectionSubject
    let usesFile: Bool
    let pageSize: Int
    private var random: SeededRandom
    private let clock = ManualClock()
    private var server: EmbeddedServer!
    private var api: FaultyAPI!
    private var client: SocialClient!
    private var directory: TemporaryDirectory?
    private var otherAPI: FaultyAPI?
    private var other: SocialClient?
    private var collection: ObservedCollection!
    private var collectionToken: NotificationToken?
    private let checker = ChangeChecker(addedBeforeFirstDelivery: true)
    private var observers: [(checker: ChangeChecker, token: NotificationToken?, endedAt: Int?)] = []
    private var model: CollectionReference
    /// The server's rows as its own events tell them (every event, whatever the client got).
    private var serverRows: [SocialRecordKey: SocialRecord] = [:]
    /// Delayed events, in order; everything after a delayed event waits behind it.
    private var held: [SocialEvent] = []
    private var deliveredSequence: Int64 = 0
    private var counter = 0
    /// The rows changed after the server served the page in flight (see `eventDuringPage`).
    private var newerThanPage: Set<String> = []
    private let stamps = StampClock(start: 1_800_000_000)
    /// What the steps reached, for the coverage counters.
    private(set) var coverage: [String: Int] = [:]

    init(seed: UInt64) {
        self.seed = seed
        random = SeededRandom(seed: seed)
        subject = CollectionSubject.allCases[random.below(CollectionSubject.allCases.count)]
        usesFile = random.chance(40)
        pageSize = 2 + random.below(4)
        model = CollectionReference(subject: subject, pageSize: pageSize)
    }

    private func count(_ name: String, _ amount: Int = 1) { coverage[name, default: 0] += amount }

    // MARK: Playing

    /// Plays `steps` steps; returns the failure report, or nil.
    func play(steps: Int, replay: String) async -> String? {
        var history: [String] = []
        defer { tearDown() }
        do {
            try await setUp()
            try await settleAndCompare()
            // Local before fresh: cached rows are delivered before the server's page.
            if cachedAtOpening {
                guard checker.firstStatus == .local else {
                    throw Failure(message: "the cache had rows, but the first delivery was \(checker.firstStatus.map { "\($0)" } ?? "none"), not local")
                }
                count("localBeforeFresh")
            }
        } catch {
            return report(step: 0, history: ["set-up"], error: error, replay: replay)
        }
        for index in 1 ... steps {
            let step = nextStep()
            history.append("\(index). \(step)")
            do {
                try await run(step)
                try await settleAndCompare()
                count(step.coverageName)
                count("steps")
            } catch {
                return report(step: index, history: history, error: error, replay: replay)
            }
        }
        do {
            try await finalSync()
        } catch {
            history.append("final sync: reconnect, deliver every delayed event, catch up, reset")
            return report(step: steps + 1, history: history, error: error, replay: replay)
        }
        return nil
    }

    private func report(step: Int, history: [String], error: any Error, replay: String) -> String {
        let message = (error as? Failure)?.message ?? "\(error)"
        return """
            LiveCollection model check failed: seed \(seed), step \(step) (\(subject), \(usesFile ? "file" : "in-memory") cache, \
            page size \(pageSize))
            step: \(history.last ?? "-")
            \(message)
            steps:
            \(history.suffix(60).joined(separator: "\n"))
            replay: \(replay)
            """
    }

    private func tearDown() {
        collectionToken?.invalidate()
        for observer in observers { observer.token?.invalidate() }
        api?.close()
        otherAPI?.close()
        client?.stopRealtime()
    }

    // MARK: Set-up

    private func setUp() async throws {
        server = try EmbeddedServer(location: .inMemory, clock: clock, epoch: 1_700_000_000, watchInterval: nil)
        for user in ["ada", "bob", "cy"] { try await server.createUser(id: user, displayName: user) }
        api = FaultyAPI(base: server.connection(userId: "ada"))
        switch subject {
        case .feed:
            try await server.createCommunity(id: CollectionSubject.community, displayName: "One", ownerId: "bob")
            try await server.createCommunity(id: CollectionSubject.otherCommunity, displayName: "Two", ownerId: "cy")
            for _ in 0 ..< random.below(pageSize * 3 + 2) {
                try await serverInsert(user: random.below(3), matching: random.chance(85))
            }
        case .channels:
            for _ in 0 ..< 1 + random.below(pageSize * 3) { try await serverInsert(user: 0, matching: true) }
            for _ in 0 ..< random.below(4) { try await serverMove(pick: random.below(1_000)) }
        case .chat:
            for id in [CollectionSubject.channel, CollectionSubject.otherChannel] {
                try await server.createChannel(id: id, displayName: id, type: .community, memberIds: ["bob", "ada", "cy"])
            }
            for _ in 0 ..< random.below(pageSize * 3 + 2) {
                try await serverInsert(user: random.below(3), matching: random.chance(85))
            }
        }
        // History: the client will load it with pages.
        try await absorbServerEvents(history: true)
        let location: SQLiteConnection.Location
        if usesFile {
            let directory = try TemporaryDirectory()
            self.directory = directory
            location = .file(directory.file("cache.sqlite"))
        } else {
            location = .inMemory
        }
        client = try SocialClient(api: api, userId: "ada", cache: location, now: { [stamps] in stamps.next() })
        if usesFile {
            let otherAPI = FaultyAPI(base: server.connection(userId: "ada"), gatesFetches: false)
            self.otherAPI = otherAPI
            let otherStamps = StampClock(start: 1_900_000_000)
            other = try SocialClient(api: otherAPI, userId: "ada", cache: location, now: { otherStamps.next() })
            if random.chance(60) { try await warmCache() }
        }
        client.startRealtime()
        // Sometimes the first server page fails: nothing cached then means `.error`.
        if random.chance(15) { api.failNextFetches(1) }
        collection = makeCollection(client)
        model.firstPage(fetching: true)
        cachedAtOpening = !model.window.isEmpty
        collectionToken = collection.observe { [checker] in checker.receive($0) }
    }

    /// Whether the cache had rows to show when the collection opened.
    private var cachedAtOpening = false

    private func makeCollection(_ client: SocialClient) -> ObservedCollection {
        switch subject {
        case .feed: ObservedCollection(client.posts.communityFeed(communityId: CollectionSubject.community, pageSize: pageSize), subject: subject)
        case .channels: ObservedCollection(client.channels.channels(pageSize: pageSize), subject: subject)
        case .chat: ObservedCollection(client.messages.messages(channelId: CollectionSubject.channel, pageSize: pageSize), subject: subject)
        }
    }

    /// The second client (an app extension, say) loads the first page into the shared file
    /// before the collection opens: the collection then starts from cached rows (`.local`).
    private func warmCache() async throws {
        guard let other, let otherAPI else { return }
        let warm = makeCollection(other)
        let deadline = ContinuousClock.now + .seconds(20)
        while warm.loadingStatus() == .loading || warm.loadingStatus() == .notLoading {
            guard ContinuousClock.now < deadline else { throw Failure(message: "the warming collection never loaded") }
            _ = try await other.store.read { _ in 0 }
        }
        for page in otherAPI.takePages() { model.absorb(page) }
        count("warmStarts")
    }

    // MARK: Steps

    private func nextStep() -> CollectionStep {
        let online = api.isConnected
        var weights: [(Int, () -> CollectionStep)] = [
            (14, { .serverInsert(user: self.random.below(3), matching: self.random.chance(80)) }),
            (9, { .serverUpdate(pick: self.random.below(1_000)) }),
            (6, { .serverDelete(pick: self.random.below(1_000)) }),
            (subject == .channels ? 12 : 0, { .serverMove(pick: self.random.below(1_000)) }),
            (held.isEmpty ? 0 : 10, { .releaseHeld(count: 1 + self.random.below(self.held.count), duplicating: self.random.chance(30)) }),
            (online ? 4 : 0, { .disconnect }),
            (online ? 0 : 25, { .reconnect }),
            (10, {
                let mutations: [CollectionStep.Mutation] = [.create, .update, .delete]
                let refusal: SocialAPIError? = switch self.random.below(4) {
                case 0: .rejected("refused by the test")
                case 1: .serverFailure("failed by the test")
                default: nil
                }
                return .local(mutations[self.random.below(3)], pick: self.random.below(1_000), refusal: refusal)
            }),
            (10, { .grow(failing: self.random.chance(15)) }),
            (3, { .reset(failing: self.random.chance(20)) }),
            (online ? 5 : 0, {
                .eventDuringPage(growing: self.random.chance(60), change: self.random.below(3), pick: self.random.below(1_000))
            }),
            (3, { .addObserver }),
            (observers.isEmpty ? 0 : 2, { .invalidateObserver(pick: self.random.below(1_000)) }),
            (observers.isEmpty ? 0 : 2, { .releaseObserver(pick: self.random.below(1_000)) }),
            (usesFile ? 8 : 0, {
                let mutations: [CollectionStep.Mutation] = [.create, .update, .delete]
                return .externalWrite(mutations[self.random.below(3)], pick: self.random.below(1_000))
            }),
            (3, { .advanceClock(seconds: 1 + self.random.below(120)) }),
        ]
        weights.removeAll { $0.0 == 0 }
        return weights[random.index(weightedBy: weights.map(\.0))].1()
    }

    private func run(_ step: CollectionStep) async throws {
        switch step {
        case .serverInsert(let user, let matching):
            try await serverInsert(user: user, matching: matching)
        case .serverUpdate(let pick):
            try await serverUpdate(pick: pick)
        case .serverDelete(let pick):
            try await serverDelete(pick: pick)
        case .serverMove(let pick):
            try await serverMove(pick: pick)
        case .releaseHeld(let releasing, let duplicating):
            let released = held.prefix(releasing)
            held.removeFirst(min(releasing, held.count))
            for event in released { deliver(event, twice: duplicating && random.chance(50)) }
            count("eventsDelayed", released.count)
        case .disconnect:
            api.setConnected(false)
            count("eventsDropped", held.count)
            held = []
        case .reconnect:
            api.setConnected(true)
            try await catchUp()
        case .local(let mutation, let pick, let refusal):
            try await local(mutation, pick: pick, refusal: refusal)
        case .grow(let failing):
            if failing { api.failNextFetches(1) }
            if subject.anchorAtEnd { collection.previousPage() } else { collection.nextPage() }
            if model.grow() {
                count(subject.anchorAtEnd ? "previousPages" : "nextPages")
            } else {
                api.failNextFetches(0)
            }
        case .reset(let failing):
            if failing { api.failNextFetches(1) }
            collection.resetPage()
            model.firstPage(fetching: true)
        case .eventDuringPage(let growing, let change, let pick):
            try await eventDuringPage(growing: growing, change: change, pick: pick)
        case .addObserver:
            let observer = ChangeChecker(addedBeforeFirstDelivery: checker.calls == 0)
            let token = collection.observe { observer.receive($0) }
            observers.append((observer, token, nil))
        case .invalidateObserver(let pick), .releaseObserver(let pick):
            let live = observers.indices.filter { observers[$0].endedAt == nil }
            guard !live.isEmpty else { return }
            let index = live[pick % live.count]
            if case .invalidateObserver = step {
                observers[index].token?.invalidate()
            } else {
                observers[index].token = nil
            }
            observers[index].endedAt = observers[index].checker.calls
        case .externalWrite(let mutation, let pick):
            try await externalWrite(mutation, pick: pick)
        case .advanceClock(let seconds):
            clock.advance(by: .seconds(seconds))
        }
        try await absorbServerEvents()
    }

    // MARK: Server-side changes

    private func nextText(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)-\(seed)-\(counter)"
    }

    private func serverInsert(user: Int, matching: Bool) async throws {
        let author = ["bob", "cy", "ada"][user % 3]
        switch subject {
        case .feed:
            let community = matching ? CollectionSubject.community : CollectionSubject.otherCommunity
            try await server.perform(.createPost(targetType: .community, targetId: community, text: nextText("post")), as: author)
        case .channels:
            counter += 1
            try await server.createChannel(id: "ch\(counter)", displayName: "channel \(counter)", type: .community,
                                           memberIds: ["bob", "ada"])
        case .chat:
            let channel = matching ? CollectionSubject.channel : CollectionSubject.otherChannel
            let text = nextText("message")
            try await server.perform(.sendText(text, channelId: channel, clientRequestId: "request-" + text), as: author)
        }
    }

    /// The server's live rows of the shown kind, in a stable order.
    private func serverCandidates(of kind: SocialRecordKind? = nil) -> [SocialRecord] {
        let kind = kind ?? subject.kind
        return serverRows.values.filter { record in
            guard record.kind == kind else { return false }
            return switch record {
            case .post(let post): !post.isDeleted
            case .message(let message): !message.isDeleted
            case .channel(let channel): !channel.isDeleted
            default: false
            }
        }.sorted { $0.base.id < $1.base.id }
    }

    private func serverUpdate(pick: Int) async throws {
        let candidates = serverCandidates()
        guard !candidates.isEmpty else { return count("noOps") }
        switch candidates[pick % candidates.count] {
        case .post(let post):
            try await server.perform(.updatePost(id: post.id, text: nextText("edited")), as: post.authorId)
        case .message(let message):
            try await server.perform(.editMessage(id: message.id, text: nextText("edited")), as: message.userId)
        case .channel(let channel):
            // Another member joins or leaves: the channel's member count changes in place.
            let joined = serverRows[SocialRecordKey(.channelMember, ChannelMember.makeID(channelId: channel.id, userId: "cy"))]
            let isMember = if case .channelMember(let member)? = joined { member.membership == .member } else { false }
            try await server.perform(isMember ? .leaveChannel(id: channel.id) : .joinChannel(id: channel.id), as: "cy")
        default:
            break
        }
    }

    private func serverDelete(pick: Int) async throws {
        let candidates = serverCandidates()
        guard !candidates.isEmpty else { return count("noOps") }
        switch candidates[pick % candidates.count] {
        case .post(let post): try await server.perform(.deletePost(id: post.id), as: post.authorId)
        case .message(let message): try await server.perform(.deleteMessage(id: message.id), as: message.userId)
        case .channel(let channel): try await server.deleteChannel(channel.id)
        default: break
        }
    }

    /// A message in a channel: its `lastActivityAt` moves it to the top of the list.
    private func serverMove(pick: Int) async throws {
        let candidates = serverCandidates(of: .channel)
        guard !candidates.isEmpty else { return count("noOps") }
        let channel = candidates[pick % candidates.count].base.id
        let text = nextText("moving")
        try await server.perform(.sendText(text, channelId: channel, clientRequestId: "request-" + text), as: "bob")
    }

    /// A page request whose answer the server has served, but which reaches the client only
    /// after a newer server-side change and its event were applied: the page must not undo it.
    private func eventDuringPage(growing: Bool, change: Int, pick: Int) async throws {
        // Delayed events first, in order: the change below is then the newest the client gets.
        if !held.isEmpty {
            count("eventsDelayed", held.count)
            for event in held { deliver(event, twice: false) }
            held = []
            try await settle()
        }
        api.holdNextAnswer()
        let fetching: Bool
        if growing {
            if subject.anchorAtEnd { collection.previousPage() } else { collection.nextPage() }
            fetching = model.grow()
        } else {
            collection.resetPage()
            model.firstPage(fetching: true)
            fetching = true
        }
        guard fetching else { return api.holdNextAnswer(false) }
        let deadline = ContinuousClock.now + .seconds(20)
        while !api.hasHeldAnswer {
            guard ContinuousClock.now < deadline else {
                throw Failure(message: "the page request never reached the server: loading \(collection.loadingStatus()), \(api.waitingFetchCount) waiting, pages \(api.takePages().map { "\($0.cursor ?? "nil") failed=\($0.failed) \($0.records.count)" })")
            }
            _ = try await client.store.read { _ in 0 }
            if api.waitingFetchCount > 0 {
                _ = try await client.store.read { _ in 0 }
                api.releaseFetch()
                count("serverPages")
            }
        }
        switch change {
        case 0: try await serverInsert(user: pick % 3, matching: true)
        case 1 where subject == .channels && pick % 2 == 0: try await serverMove(pick: pick)
        case 1: try await serverUpdate(pick: pick)
        default: try await serverDelete(pick: pick)
        }
        let before = deliveredSequence
        try await absorbServerEvents(immediately: true)
        while client.lastEventSequence < deliveredSequence {
            guard ContinuousClock.now < deadline else { throw Failure(message: "the event during the page was never applied") }
            _ = try await client.store.read { _ in 0 }
        }
        for _ in 0 ..< 3 { _ = try await client.store.read { _ in 0 } }
        if deliveredSequence > before { count("eventsDuringPages.delivered") }
        api.releaseAnswer()
    }

    // MARK: Events

    /// Takes the server's new events (waiting until every write so far has arrived), keeps the
    /// server's rows, and delivers, duplicates, delays or (offline) drops each one.
    private func absorbServerEvents(history: Bool = false, immediately: Bool = false) async throws {
        // Every write so far has published its events (the server's hub delivers them in order).
        await api.waitForIncoming(through: try await server.latestSequence())
        for event in api.takeIncoming() {
            switch event {
            case .created(let record, _), .updated(let record, _): serverRows[record.key] = record
            case .deleted(let key, _): serverRows[key] = nil
            case .connected, .disconnected: break
            }
            if history {
                continue
            } else if !api.isConnected {
                count("eventsDropped")
            } else if immediately {
                deliver(event, twice: false)
                switch event {
                case .created(let record, _), .updated(let record, _):
                    if let row = subject.row(record) { newerThanPage.insert(row.identity) }
                case .deleted(let key, _):
                    if key.kind == subject.kind { newerThanPage.insert(key.id) }
                case .connected, .disconnected: break
                }
            } else if !held.isEmpty || random.chance(25) {
                held.append(event)
            } else {
                deliver(event, twice: random.chance(15))
            }
        }
    }

    private func deliver(_ event: SocialEvent, twice: Bool) {
        switch event {
        case .created(let record, _), .updated(let record, _): model.upsert(record)
        case .deleted(let key, _): model.remove(key)
        case .connected, .disconnected: break
        }
        api.deliver(event)
        count("eventsDelivered")
        if twice {
            api.deliver(event)
            count("eventsDuplicated")
        }
        deliveredSequence = max(deliveredSequence, event.sequence ?? 0)
    }

    /// What an app does when the connection comes back (see `SocialClient.lastEventSequence`):
    /// reads the change log from the last applied sequence and applies it as events.
    private func catchUp() async throws {
        var since = client.lastEventSequence
        while true {
            let log = try await api.changes(since: since, limit: 7)
            for key in log.deleted {
                model.remove(key)
                client.apply(.deleted(key, sequence: log.latestSequence))
            }
            for record in log.records {
                model.upsert(record)
                client.apply(.updated(record, sequence: log.latestSequence))
            }
            count("changeLogRecords", log.records.count + log.deleted.count)
            deliveredSequence = max(deliveredSequence, log.latestSequence)
            since = log.latestSequence
            guard log.hasMore else { break }
        }
        count("catchUps")
    }

    // MARK: Local mutations

    private func local(_ mutation: CollectionStep.Mutation, pick: Int, refusal: SocialAPIError?) async throws {
        if let refusal { api.failNextPerform(refusal) }
        defer { api.failNextPerform(nil) }
        // Refused by the test, offline, or by the server for its own reason (the client showed a
        // row the server had deleted, its event still delayed): the documented failure path.
        var refused = false
        switch subject {
        case .feed:
            let mine = windowRecords().compactMap { record -> Post? in
                if case .post(let post) = record, post.authorId == "ada", post.syncState == .synced { post } else { nil }
            }
            if mutation == .create || mine.isEmpty {
                let text = nextText("mine")
                let stamp = stamps.upcoming
                do {
                    try await client.posts.create(text: text, in: .community, targetId: CollectionSubject.community)
                } catch {
                    refused = true
                }
                let identity = "local:" + text
                if refused {
                    model.upsert(.post(Post(id: "local-model", authorId: "ada", targetType: .community,
                                            targetId: CollectionSubject.community, text: text, createdAt: stamp,
                                            updatedAt: stamp, syncState: .error)))
                } else {
                    for result in api.takeResults() { model.apply(result, replacingLocal: identity) }
                }
                return
            }
            var post = mine[pick % mine.count]
            do {
                if mutation == .update {
                    let text = nextText("mine-edited")
                    post.text = text
                    try await client.posts.update(mine[pick % mine.count], text: text)
                } else {
                    post.isDeleted = true
                    try await client.posts.delete(mine[pick % mine.count])
                }
            } catch {
                refused = true
            }
            post.syncState = .error
            refused ? model.upsert(.post(post)) : applyResults()
        case .chat:
            let mine = windowRecords().compactMap { record -> Message? in
                if case .message(let message) = record, message.userId == "ada", message.syncState == .synced { message } else { nil }
            }
            guard !mine.isEmpty else { return count("noOps") }
            var message = mine[pick % mine.count]
            do {
                if mutation == .delete {
                    message.isDeleted = true
                    try await client.messages.delete(mine[pick % mine.count])
                } else {
                    let text = nextText("mine-edited")
                    message.text = text
                    try await client.messages.edit(mine[pick % mine.count], text: text)
                }
            } catch {
                refused = true
            }
            message.syncState = .error
            refused ? model.upsert(.message(message)) : applyResults()
        case .channels:
            // Joining or leaving changes the channel's member count (a membership has the sync state).
            let candidates = serverCandidates(of: .channel)
            guard !candidates.isEmpty else { return count("noOps") }
            let channel = candidates[pick % candidates.count].base.id
            do {
                if mutation == .delete {
                    try await client.channels.leave(channel)
                } else {
                    try await client.channels.join(channel)
                }
            } catch {
                refused = true
            }
            if !refused { applyResults() }
        }
    }

    private func applyResults() {
        for result in api.takeResults() { model.apply(result) }
    }

    /// The records the collection shows now, as the app would take them to edit.
    private func windowRecords() -> [SocialRecord] {
        (0 ..< collection.count()).compactMap { collection.record($0) }
    }

    // MARK: The cache's other writer

    private func externalWrite(_ mutation: CollectionStep.Mutation, pick: Int) async throws {
        guard let other, let otherAPI else { return }
        let mine = serverCandidates().filter { record in
            switch record {
            case .post(let post): post.authorId == "ada" && post.targetId == CollectionSubject.community
            case .message(let message): message.userId == "ada" && message.channelId == CollectionSubject.channel
            default: true
            }
        }
        var localIdentity: String?
        switch (subject, mutation) {
        case (.feed, let mutation) where mutation == .create || mine.isEmpty:
            let text = nextText("other-device")
            localIdentity = "local:" + text
            try await other.posts.create(text: text, in: .community, targetId: CollectionSubject.community)
        case (.feed, let mutation):
            guard case .post(let post) = mine[pick % mine.count] else { return }
            if mutation == .update {
                try await other.posts.update(post, text: nextText("other-edited"))
            } else {
                try await other.posts.delete(post)
            }
        case (.chat, _) where mine.isEmpty:
            return count("noOps")
        case (.chat, let mutation):
            guard case .message(let message) = mine[pick % mine.count] else { return }
            if mutation == .delete {
                try await other.messages.delete(message)
            } else {
                try await other.messages.edit(message, text: nextText("other-edited"))
            }
        case (.channels, let mutation):
            guard !mine.isEmpty else { return count("noOps") }
            let channel = mine[pick % mine.count].base.id
            // Leaving a channel ada is not in is refused: the write is then only undone locally.
            if mutation == .delete { try? await other.channels.leave(channel) } else { try? await other.channels.join(channel) }
        }
        for result in otherAPI.takeResults() { model.apply(result, replacingLocal: localIdentity) }
        await client.store.checkForExternalChanges()
        count("crossProcessWrites")
    }

    // MARK: Settling and comparing

    /// Waits until the client applied what it was given, the collection's reads and server pages
    /// are done (page requests are let through one at a time, after the cache reads before them),
    /// and observers got their deliveries; then feeds the pages to the model.
    private func settle() async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        var quietRounds = 0
        var calls = -1
        while quietRounds < 3 {
            guard ContinuousClock.now < deadline else {
                throw Failure(message: "never settled: loading \(collection.loadingStatus()), events applied through \(client.lastEventSequence) of \(deliveredSequence), \(api.waitingFetchCount) page requests waiting")
            }
            _ = try await client.store.read { _ in 0 }
            quietRounds += 1
            if client.lastEventSequence < deliveredSequence {
                quietRounds = 0
            } else if api.waitingFetchCount > 0 {
                _ = try await client.store.read { _ in 0 }
                api.releaseFetch()
                count("serverPages")
                quietRounds = 0
            } else if collection.loadingStatus() == .loading {
                quietRounds = 0
            } else if checker.calls != calls {
                calls = checker.calls
                quietRounds = 0
            }
        }
        // A failure planned for a request that was not made (a page that was not needed) lapses.
        api.failNextFetches(0)
        for page in api.takePages() {
            model.pageArrived(page, newer: newerThanPage)
            newerThanPage = []
            if page.failed { count("failedPages") }
        }
        model.cacheJobFinished()
        if model.dataStatus == .error { count("dataStatusErrors") }
        if model.dataStatus == .local { count("dataStatusLocal") }
    }

    private func settleAndCompare() async throws {
        try await settle()
        let expected = model.display
        var problems: [String] = []
        func check(_ ok: Bool, _ what: @autoclosure () -> String) { if !ok { problems.append(what()) } }

        let count = collection.count()
        check(count == expected.count, "count \(count), expected \(expected.count)")
        let read = (0 ..< count).map { collection.row($0) ?? nil }
        check(read == expected.map(Optional.some), "object(at:) gives\n    \(read.map { $0?.description ?? "nil" })")
        check(collection.row(count) == nil && collection.row(-1) == nil, "object(at:) out of range is not nil")
        let all = collection.allRows()
        check(all == expected, "allObjects() gives\n    \(all)")
        if let problem = checker.problem { problems.append("observer: " + problem) }
        if checker.calls > 0 { check(checker.rows == expected, "the observer's last delivery shows\n    \(checker.rows)") }
        if let last = checker.last, checker.calls > 0 {
            check(last.dataStatus == model.dataStatus && last.loadingStatus == model.loadingStatus,
                  "the last delivery's statuses are \(last.dataStatus)/\(last.loadingStatus)")
        }
        let canGrow = model.canGrow
        check(collection.hasNext() == (!subject.anchorAtEnd && canGrow), "hasNext is \(collection.hasNext())")
        check(collection.hasPrevious() == (subject.anchorAtEnd && canGrow), "hasPrevious is \(collection.hasPrevious())")
        check(collection.dataStatus() == model.dataStatus, "dataStatus is \(collection.dataStatus()), expected \(model.dataStatus)")
        check(collection.loadingStatus() == model.loadingStatus,
              "loadingStatus is \(collection.loadingStatus()), expected \(model.loadingStatus)")
        check(collection.hasError() == model.hasError, "error is \(collection.hasError() ? "set" : "nil")")
        for (index, observer) in observers.enumerated() {
            if let problem = observer.checker.problem { problems.append("extra observer \(index): " + problem) }
            if let endedAt = observer.endedAt {
                check(observer.checker.calls == endedAt, "extra observer \(index) was called after its token ended")
            } else if observer.checker.calls > 0 {
                check(observer.checker.rows == expected, "extra observer \(index) shows\n    \(observer.checker.rows)")
            } else {
                check(expected.isEmpty && model.dataStatus == .notExist, "extra observer \(index) was never called")
            }
        }
        coverage["changesChecked"] = checker.changesChecked
        coverage["movesDelivered"] = checker.movesSeen
        coverage["unchangedModifications"] = checker.unchangedModifications
        guard problems.isEmpty else {
            throw Failure(message: """
                expected (\(expected.count) rows, boundary \(model.boundary.map { "\($0)" } ?? "end"), \
                \(model.dataStatus)/\(model.loadingStatus)):
                    \(expected)
                actual:
                    \(all)
                problems:
                  - \(problems.joined(separator: "\n  - "))
                """)
        }
    }

    /// Ends a sequence the way an app recovers everything: reconnects, delivers every delayed
    /// event, catches up, resets the window; then the cache must hold the server's rows.
    private func finalSync() async throws {
        if !api.isConnected {
            api.setConnected(true)
            try await catchUp()
        }
        for event in held { deliver(event, twice: false) }
        held = []
        // Applied before the catch-up: events are older than the change log that follows them.
        try await settle()
        try await catchUp()
        collection.resetPage()
        model.firstPage(fetching: true)
        try await settleAndCompare()
        var stale: [String] = []
        for record in serverCandidates() {
            guard let row = subject.row(record), row.matches else { continue }
            if let known = model.window.first(where: { $0.identity == row.identity }), known.synced, known != row {
                stale.append("\(known) on the client, \(row) on the server")
            }
        }
        if !stale.isEmpty { throw Failure(message: "after recovery the client still shows stale rows:\n  " + stale.joined(separator: "\n  ")) }
    }
}
