import BenchmarkSupport
import GRDB
import LiveRepository
import LiveSocial

/// Scenario 1: from asking for a channel's messages to the first callback with the cached page,
/// for a `LiveCollection` and for GRDB's `ValueObservation`, over the same cache file.
@MainActor
struct FirstReadScenario {
    let store: LiveStore
    let pool: DatabasePool
    private let clock = ContinuousClock()

    /// What one timed read saw: how long it took and the newest message's id, to check that
    /// every contender read the same page.
    struct Sample {
        var milliseconds: Double
        var newestId: String
    }

    /// Times every contender on each channel, in rounds whose order rotates so that a warm
    /// file or a disturbance favors none. The first `warmUp` channels are not counted.
    func run(channels: [String], warmUp: Int) async throws -> [FirstReadContender: [Double]] {
        var samples: [FirstReadContender: [Double]] = [:]
        let contenders = FirstReadContender.allCases
        for (round, channel) in channels.enumerated() {
            var newest: Set<String> = []
            for step in 0..<contenders.count {
                let contender = contenders[(round + step) % contenders.count]
                let sample = try await measure(contender, channel: channel)
                newest.insert(sample.newestId)
                if round >= warmUp { samples[contender, default: []].append(sample.milliseconds) }
            }
            if newest.count != 1 { fatalError("\(channel): the contenders saw different newest messages \(newest)") }
        }
        return samples
    }

    func measure(_ contender: FirstReadContender, channel: String) async throws -> Sample {
        switch contender {
        case .liveCollection: await liveCollection(channel: channel)
        case .grdbAsync: try await observation(channel: channel, immediate: false)
        case .grdbImmediate: try await observation(channel: channel, immediate: true)
        }
    }

    /// From the query call and the collection's creation to its first observe call.
    private func liveCollection(channel: String) async -> Sample {
        let first = FirstCallback<ContinuousClock.Instant>()
        let start = clock.now
        let collection = LiveCollection(
            store: store,
            query: SocialQuery<Message>.messages(channelId: channel, newestFirst: false).cacheQuery,
            pageSize: 20, anchor: .end, fetchPage: nil)
        let token = collection.observe { [clock] _, _, _ in first.fire(clock.now) }
        let end = await first.wait()
        token.invalidate()
        guard collection.dataStatus == .local, collection.count == 20, let newest = collection.object(at: 19) else {
            fatalError("\(channel): first callback with \(collection.dataStatus), \(collection.count) rows")
        }
        return Sample(milliseconds: milliseconds(start.duration(to: end)), newestId: newest.id)
    }

    /// From `start(in:scheduling:)` to the first `onChange`.
    private func observation(channel: String, immediate: Bool) async throws -> Sample {
        let observation = ValueObservation.tracking { db in try GRDBSide.newestMessages(db, channel: channel) }
        let first = FirstCallback<(ContinuousClock.Instant, Int, String)>()
        let clock = self.clock
        let onChange: @Sendable ([Message]) -> Void = { messages in
            let end = clock.now
            MainActor.assumeIsolated { first.fire((end, messages.count, messages.first?.id ?? "")) }
        }
        let onError: @Sendable (any Error) -> Void = { error in fatalError("GRDB: \(error)") }
        let start = clock.now
        let cancellable = immediate
            ? observation.start(in: pool, scheduling: .immediate, onError: onError, onChange: onChange)
            : observation.start(in: pool, scheduling: .async(onQueue: .main), onError: onError, onChange: onChange)
        let (end, count, newest) = await first.wait()
        cancellable.cancel()
        guard count == 20 else { fatalError("\(channel): GRDB's first value has \(count) rows") }
        return Sample(milliseconds: milliseconds(start.duration(to: end)), newestId: newest)
    }
}
