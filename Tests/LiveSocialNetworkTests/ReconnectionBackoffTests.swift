import Foundation
@testable import LiveSocialNetwork
import Testing

@Suite struct ReconnectionBackoffTests {
    @Test func theCeilingDoublesUpToTheCap() {
        let backoff = ReconnectionBackoff(initialDelay: 0.5, maximumDelay: 30, multiplier: 2)
        #expect((1...9).map { backoff.ceiling(forAttempt: $0) } == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        #expect(backoff.ceiling(forAttempt: 10_000) == 30)
        #expect(backoff.ceiling(forAttempt: 0) == 0.5)
    }

    @Test func everyDelayIsBetweenZeroAndItsCeiling() {
        let backoff = ReconnectionBackoff()
        var random = SeededRandom(seed: 1)
        for attempt in 1...200 {
            let delay = backoff.delay(forAttempt: attempt, using: &random)
            #expect(delay >= 0 && delay <= backoff.ceiling(forAttempt: attempt))
        }
    }

    @Test func theSameSeedGivesTheSameSchedule() {
        let backoff = ReconnectionBackoff()
        func schedule(_ seed: UInt64) -> [Double] {
            var random = SeededRandom(seed: seed)
            return (1...12).map { backoff.delay(forAttempt: $0, using: &random) }
        }
        #expect(schedule(42) == schedule(42))
        #expect(schedule(42) != schedule(43))
    }

    @Test func theJitterSpreadsOverTheWholeRange() {
        // Full jitter: over many draws at the cap, both the low and the high quarter are hit.
        let backoff = ReconnectionBackoff(initialDelay: 1, maximumDelay: 8)
        var random = SeededRandom(seed: 7)
        let delays = (0..<400).map { _ in backoff.delay(forAttempt: 10, using: &random) }
        #expect(delays.contains { $0 < 2 })
        #expect(delays.contains { $0 > 6 })
    }

    @Test func aZeroStartNeverWaits() {
        var random = SeededRandom(seed: 3)
        #expect(ReconnectionBackoff(initialDelay: 0, maximumDelay: 0).delay(forAttempt: 5, using: &random) == 0)
    }
}
