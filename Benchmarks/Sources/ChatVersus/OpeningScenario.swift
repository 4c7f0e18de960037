import BenchmarkSupport
import LiveSocial

/// Scenario 1: a message collection opened at a starting point, timed from the
/// `createMessageCollection` call to its `cacheResultHandler` and to its `apiResultHandler`.
@MainActor
struct OpeningScenario {
    let fixture: ChatFixture
    private let clock = ContinuousClock()

    /// One opening: milliseconds to each handler.
    struct Sample {
        var cache: Double
        var api: Double
    }

    /// The times of `count` random starting points between the channel's oldest and newest
    /// messages, uniformly spread and seeded.
    func randomStartingPoints(count: Int, seed: UInt64) -> [Double] {
        var random = SeededGenerator(seed: seed)
        let span = fixture.newest - fixture.oldest
        return (0..<count).map { _ in
            fixture.oldest + span * Double(random.next() >> 11) / Double(1 << 53)
        }
    }

    /// Opens a collection at each starting point in turn, with the default parameters (20
    /// previous, 20 next), and disposes of it once its server answer came.
    func run(startingPoints: [Double]) async -> [Sample] {
        var samples: [Sample] = []
        for startingPoint in startingPoints {
            samples.append(await open(at: startingPoint))
        }
        return samples
    }

    private func open(at startingPoint: Double) async -> Sample {
        let cached = Awaited<(ContinuousClock.Instant, [Message])>()
        let served = Awaited<(ContinuousClock.Instant, [Message])>()
        let clock = self.clock
        let start = clock.now
        let collection = fixture.client.createMessageCollection(channelId: ChatFixture.channelId, startingPoint: startingPoint)
        collection.startCollection(
            initPolicy: .cacheAndReplaceByApi,
            cacheResultHandler: { messages, error in
                let now = clock.now
                guard let messages else { fatalError("cache result at \(startingPoint): \(String(describing: error))") }
                cached.fire((now, messages))
            },
            apiResultHandler: { messages, error in
                let now = clock.now
                guard let messages else { fatalError("API result at \(startingPoint): \(String(describing: error))") }
                served.fire((now, messages))
            })
        let (cacheEnd, cacheMessages) = await cached.wait("cache result at \(startingPoint)")
        let (apiEnd, apiMessages) = await served.wait("API result at \(startingPoint)")
        collection.dispose()
        check(startingPoint, cache: cacheMessages, api: apiMessages)
        return Sample(cache: milliseconds(start.duration(to: cacheEnd)), api: milliseconds(start.duration(to: apiEnd)))
    }

    /// The cache holds exactly the server's messages: both answers must list the same 40 (20 at
    /// the newest messages), oldest first, around the starting point.
    private func check(_ startingPoint: Double, cache: [Message], api: [Message]) {
        let expected = startingPoint.isInfinite ? 20 : 40
        let cacheIds = cache.map(\.id)
        guard cacheIds == api.map(\.id), cache.count == expected else {
            fatalError("at \(startingPoint): the cache gave \(cache.count) messages, the server \(api.count), "
                + "expected the same \(expected)")
        }
        let times = cache.map(\.createdAt)
        guard times == times.sorted() else { fatalError("at \(startingPoint): messages out of order") }
        if !startingPoint.isInfinite {
            guard times[19] < startingPoint, times[20] > startingPoint else {
                fatalError("at \(startingPoint): the messages do not surround the starting point")
            }
        }
    }
}
