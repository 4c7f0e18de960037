import BenchmarkSupport
import Dispatch
import Foundation
import LiveRepository
import LiveSocial

/// Scenario 5: how long the main actor stops while a list scrolls through a large window and a
/// burst of real-time events is being applied to the same cache.
///
/// A cache of ``windowRows`` messages in one channel is opened in a new store (nothing decoded
/// yet) as one `LiveCollection` page of that size, anchored at the newest end. Then, at once,
/// ``events`` message-created events for the same channel are queued with `enqueueWrite` (they
/// enter the window at its newest end, so the rows being read keep their indexes), and a frame
/// timer on the main queue starts, at 240 Hz: each frame reads the ``rowsPerFrame`` rows of a
/// screen with `object(at:)`, then scrolls that many rows on (a fast fling), starting over at
/// the top when it reaches the bottom of the original rows. The run ends when the observer has
/// seen every event and at least ``minimumFrames`` frames have run.
///
/// Reported: each frame's reads (the main actor is stopped for as long as they take), and the
/// longest time between two frames beyond the frame interval (the main actor was busy with
/// something else then, such as a delivery).
@MainActor
struct StallScenario {
    let windowRows: Int
    let events: Int
    let folder: URL
    let rowsPerFrame = 40
    let minimumFrames = 240
    private static let channel = "scrolled"
    private static let frameInterval = Duration.nanoseconds(4_166_667)

    struct Run {
        /// Milliseconds each frame spent reading its rows.
        var frameReads: [Double]
        /// The longest time between two frame starts beyond the frame interval: ms.
        var longestLateness: Double
        /// From queuing the first event to the delivery that showed the last: s.
        var burstSeconds: Double
        /// Rows read; rows that came back nil (none should).
        var rowsRead: Int
        var missing: Int
    }

    func run() async throws -> Run {
        let url = folder.appendingPathComponent("stall.sqlite")
        try? FileManager.default.removeItem(at: url)
        var factory = MessageFactory(seed: 5)
        do {
            let store = try CacheBuilder.open(url)
            let rows = factory.make(windowRows) { _ in Self.channel }
            try await store.write { try $0.upsert(contentsOf: rows) }
            await store.close()
        }
        let messages = factory.make(events) { _ in Self.channel }

        let store = try CacheBuilder.open(url)
        let collection = LiveCollection(
            store: store,
            query: SocialQuery<Message>.messages(channelId: Self.channel, newestFirst: false).cacheQuery,
            pageSize: windowRows, anchor: .end, fetchPage: nil)
        let progress = EventProgress(target: windowRows + events)
        let clock = ContinuousClock()
        let token = collection.observe { collection, _, _ in progress.observed(count: collection.count, at: clock.now) }
        await progress.ready.wait()
        guard collection.count == windowRows else { fatalError("the window holds \(collection.count) rows, not \(windowRows)") }

        let frames = Frames(collection: collection, rows: windowRows, rowsPerFrame: rowsPerFrame, clock: clock)
        let start = clock.now
        for message in messages {
            store.enqueueWrite({ try $0.upsert(message) }, completion: { error in
                if let error { fatalError("enqueueWrite: \(error)") }
            })
        }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now(), repeating: .nanoseconds(Int(nanoseconds(Self.frameInterval))), leeway: .microseconds(200))
        timer.setEventHandler { MainActor.assumeIsolated { frames.draw() } }
        timer.resume()
        let burstEnd = await progress.done.wait()
        await frames.atLeast(minimumFrames)
        timer.cancel()
        token.invalidate()
        await store.close()
        try? FileManager.default.removeItem(at: url)
        let interval = milliseconds(Self.frameInterval)
        return Run(
            frameReads: frames.reads, longestLateness: max(0, frames.longestGap - interval),
            burstSeconds: seconds(start.duration(to: burstEnd)), rowsRead: frames.rowsRead, missing: frames.missing)
    }

    /// The frames of the scrolling list: what each read took, and the gaps between them.
    @MainActor
    final class Frames {
        let collection: LiveCollection<Message>
        let rows: Int
        let rowsPerFrame: Int
        let clock: ContinuousClock
        private(set) var reads: [Double] = []
        private(set) var longestGap = 0.0
        private(set) var rowsRead = 0
        private(set) var missing = 0
        private var position = 0
        private var lastStart: ContinuousClock.Instant?
        private var waiter: (count: Int, callback: FirstCallback<Void>)?

        init(collection: LiveCollection<Message>, rows: Int, rowsPerFrame: Int, clock: ContinuousClock) {
            self.collection = collection
            self.rows = rows
            self.rowsPerFrame = rowsPerFrame
            self.clock = clock
        }

        func draw() {
            let start = clock.now
            if let lastStart { longestGap = max(longestGap, milliseconds(lastStart.duration(to: start))) }
            lastStart = start
            for index in position..<(position + rowsPerFrame) where collection.object(at: index) == nil {
                missing += 1
            }
            rowsRead += rowsPerFrame
            reads.append(milliseconds(start.duration(to: clock.now)))
            position += rowsPerFrame
            if position + rowsPerFrame > rows { position = 0 }
            if let waiter, reads.count >= waiter.count { waiter.callback.fire(()) }
        }

        /// Returns once `count` frames have been drawn.
        func atLeast(_ count: Int) async {
            guard reads.count < count else { return }
            let callback = FirstCallback<Void>()
            waiter = (count, callback)
            await callback.wait()
        }
    }
}
