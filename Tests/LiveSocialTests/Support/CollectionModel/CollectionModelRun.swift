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
    var random: SeededRandom
    let clock = ManualClock()
    var server: EmbeddedServer!
    var api: FaultyAPI!
    var client: SocialClient!
    var directory: TemporaryDirectory?
    var otherAPI: FaultyAPI?
    var other: SocialClient?
    var collection: ObservedCollection!
    var collectionToken: NotificationToken?
    let checker = ChangeChecker(addedBeforeFirstDelivery: true)
    var observers: [(checker: ChangeChecker, token: NotificationToken?, endedAt: Int?)] = []
    var model: CollectionReference
    /// The server's rows as its own events tell them (every event, whatever the client got).
    var serverRows: [SocialRecordKey: SocialRecord] = [:]
    /// Delayed events, in order; everything after a delayed event waits behind it.
    var held: [SocialEvent] = []
    var deliveredSequence: Int64 = 0
    var counter = 0
    /// The rows changed after the server served the page in flight (see `eventDuringPage`).
    var newerThanPage: Set<String> = []
    let stamps = StampClock(start: 1_800_000_000)
    /// What the steps reached, for the coverage counters.
    var coverage: [String: Int] = [:]

    init(seed: UInt64) {
        self.seed = seed
        random = SeededRandom(seed: seed)
        subject = CollectionSubject.allCases[random.below(CollectionSubject.allCases.count)]
        usesFile = random.chance(40)
        pageSize = 2 + random.below(4)
        model = CollectionReference(subject: subject, pageSize: pageSize)
    }

    func count(_ name: String, _ amount: Int = 1) { coverage[name, default: 0] += amount }

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

    func report(step: Int, history: [String], error: any Error, replay: String) -> String {
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

    func tearDown() {
        collectionToken?.invalidate()
        for observer in observers { observer.token?.invalidate() }
        api?.close()
        otherAPI?.close()
        client?.stopRealtime()
    }

    // MARK: Set-up

    func setUp() async throws {
        server = try EmbeddedServer(location: .inMemory, clock: clock, epoch: 1_700_000_000, externalChanges: .off)
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
        try await waitForClient(connected: true)
        // Sometimes the first server page fails: nothing cached then means `.error`.
        if random.chance(15) { api.failNextFetches(1) }
        collection = makeCollection(client)
        model.firstPage(fetching: true)
        cachedAtOpening = !model.window.isEmpty
        collectionToken = collection.observe { [checker] in checker.receive($0) }
    }

    /// Whether the cache had rows to show when the collection opened.
    var cachedAtOpening = false

    func makeCollection(_ client: SocialClient) -> ObservedCollection {
        switch subject {
        case .feed: ObservedCollection(client.posts.communityFeed(communityId: CollectionSubject.community, pageSize: pageSize), subject: subject)
        case .channels: ObservedCollection(client.channels.channels(pageSize: pageSize), subject: subject)
        case .chat: ObservedCollection(client.messages.messages(channelId: CollectionSubject.channel, pageSize: pageSize), subject: subject)
        }
    }

    /// The second client (an app extension, say) loads the first page into the shared file
    /// before the collection opens: the collection then starts from cached rows (`.local`).
    func warmCache() async throws {
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

    func nextStep() -> CollectionStep {
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

    func run(_ step: CollectionStep) async throws {
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
            try await waitForClient(connected: false)
            count("eventsDropped", held.count)
            held = []
        case .reconnect:
            try await reconnect()
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
}
