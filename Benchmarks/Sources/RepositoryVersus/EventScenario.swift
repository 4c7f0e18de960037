import BenchmarkSupport
import Foundation
import GRDB
import LiveRepository
import LiveSocial

/// Scenario 2: message-created events applied to the cache one write each, batched into shared
/// transactions, while the channel's messages are observed; timed from the first event to the
/// delivery that shows them all. GRDB's runs also stop when their time budget runs out.
@MainActor
struct EventScenario {
    /// The events per run.
    let events: Int
    /// Where each run makes its own new cache file.
    let folder: URL
    /// The most a GRDB run may take; a run still short of the last event then reports what
    /// arrived. Our runs get ``safetyBudget``.
    let budget: Duration
    private let safetyBudget = Duration.seconds(120)
    private let clock = ContinuousClock()
    private static let channel = "live-events"

    /// One run: how long, how many observer deliveries it took, and how many events the
    /// observer saw (all of them unless the budget ran out).
    struct Run {
        var seconds: Double
        var deliveries: Int
        var reflected: Int
        /// From the first event to the last one's commit (nil when the budget ran out first).
        var writeSeconds: Double?
        var eventsPerSecond: Double { Double(reflected) / seconds }
    }

    /// Writes one seed message to a new cache file and returns it with the seed message and the
    /// events to apply.
    private func prepare(_ name: String, seed: UInt64) async throws -> (url: URL, seed: Message, events: [Message]) {
        let url = folder.appendingPathComponent("\(name).sqlite")
        var factory = MessageFactory(seed: seed)
        let first = factory.next(channelId: Self.channel)
        let store = try CacheBuilder.open(url)
        try await store.write { try $0.upsert(first) }
        await store.close()
        return (url, first, factory.make(events) { _ in Self.channel })
    }

    /// `store.enqueueWrite { upsert }` per event, observed by a `LiveCollection` over the channel
    /// (oldest first, anchored at the end, so new messages enter at the end of its window).
    func liveStore(round: Int) async throws -> Run {
        let (url, _, messages) = try await prepare("events-live-\(round)", seed: UInt64(100 + round))
        let store = try CacheBuilder.open(url)
        let clock = self.clock
        let collection = LiveCollection(
            store: store,
            query: SocialQuery<Message>.messages(channelId: Self.channel, newestFirst: false).cacheQuery,
            pageSize: 20, anchor: .end, fetchPage: nil)
        let progress = EventProgress(target: events + 1)
        let token = collection.observe { collection, _, _ in
            progress.observed(count: collection.count, at: clock.now)
        }
        await progress.ready.wait()
        progress.startCounting()
        let start = clock.now
        for (index, message) in messages.enumerated() {
            store.enqueueWrite({ try $0.upsert(message) }, completion: { error in
                if let error { fatalError("enqueueWrite: \(error)") }
                guard index == messages.count - 1 else { return }
                let now = clock.now
                progress.committed(at: now)
            })
        }
        let end = await wait(progress, budget: safetyBudget)
        token.invalidate()
        if progress.isComplete, collection.object(at: events)?.id != messages.last?.id {
            fatalError("the collection's last row is not the last event's message")
        }
        await store.close()
        return run(progress, from: start, to: end)
    }

    /// Each event queued on a ``GRDBWriteBatcher`` (events queued while a `pool.asyncWrite` runs
    /// share the next one's transaction, as our store batches them), observed by a
    /// `ValueObservation` of the channel's newest 20 rows. How many events a delivery
    /// reflects comes from its newest row's id, through a dictionary built before the clock
    /// starts (the writes are serial, so the newest row being event n means events 1…n are in).
    func grdb(round: Int) async throws -> Run {
        let (url, first, messages) = try await prepare("events-grdb-\(round)", seed: UInt64(100 + round))
        // The row count a newest id stands for: 1 for the seed message, n + 1 for event n.
        var rowsByNewestId = [first.id: 1]
        for (index, message) in messages.enumerated() { rowsByNewestId[message.id] = index + 2 }
        let pool = try GRDBSide.openPool(url)
        let channel = Self.channel
        let observation = ValueObservation.tracking { db in
            try GRDBSide.newestMessages(db, channel: channel).first?.id
        }
        let progress = EventProgress(target: events + 1)
        let clock = self.clock
        let cancellable = observation.start(
            in: pool, scheduling: .async(onQueue: .main),
            onError: { error in fatalError("GRDB: \(error)") },
            onChange: { [rowsByNewestId] newestId in
                let now = clock.now
                guard let newestId, let rows = rowsByNewestId[newestId] else {
                    fatalError("GRDB's newest row is neither the seed message nor an event's")
                }
                MainActor.assumeIsolated { progress.observed(count: rows, at: now) }
            })
        await progress.ready.wait()
        progress.startCounting()
        let start = clock.now
        let stop = StopFlag()
        let writer = GRDBWriteBatcher(pool: pool, stop: stop)
        for message in messages.dropLast() { writer.enqueue(message) }
        if let last = messages.last {
            writer.enqueue(last) {
                let now = clock.now
                DispatchQueue.main.async { MainActor.assumeIsolated { progress.committed(at: now) } }
            }
        }
        let end = await wait(progress, budget: budget)
        // GRDB may deliver the last event before the completion of its write has reached the
        // main queue: wait for it, so that "last write committed" is known.
        if progress.isComplete { await progress.commit.wait() }
        stop.stop()
        writer.close()
        cancellable.cancel()
        try pool.close()
        return run(progress, from: start, to: end)
    }

    /// Waits for every event to arrive, or for the budget to run out.
    private func wait(_ progress: EventProgress, budget: Duration) async -> ContinuousClock.Instant {
        let clock = self.clock
        let deadline = DispatchTime.now() + .nanoseconds(Int(milliseconds(budget) * 1e6))
        DispatchQueue.main.asyncAfter(deadline: deadline) {
            MainActor.assumeIsolated { progress.expire(at: clock.now) }
        }
        return await progress.done.wait()
    }

    private func run(_ progress: EventProgress, from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Run {
        Run(seconds: seconds(start.duration(to: end)), deliveries: progress.deliveries, reflected: progress.lastCount - 1,
            writeSeconds: progress.committedAt.map { seconds(start.duration(to: $0)) })
    }
}
