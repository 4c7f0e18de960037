import LiveSocial
import LiveSocialServer
import Testing

/// The waits between automatic resends after server failures.
@Suite struct RetryPolicyTests {
    @Test func theDefaultWaitsDoubleFromHalfASecondUpToThirtySeconds() {
        let policy = RetryPolicy(random: { 0 })
        let waits = (1...9).map { policy.delay(forRetry: $0) }
        #expect(waits == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16),
                          .seconds(30), .seconds(30), .seconds(30)])
        #expect(policy.ceiling(forRetry: 1_000) == .seconds(30))
        #expect(policy.ceiling(forRetry: 0) == .milliseconds(500))
    }

    @Test func jitterTakesARandomPartOfEachWaitOff() {
        let half = RetryPolicy(jitter: 0.5, random: { 0.5 })
        #expect(half.delay(forRetry: 1) == .milliseconds(375))
        #expect(half.delay(forRetry: 3) == .milliseconds(1_500))
        let full = RetryPolicy(jitter: 1, random: { 0.999 })
        #expect(full.delay(forRetry: 2) < .milliseconds(2))
        #expect(full.delay(forRetry: 2) > .zero)
        // Without jitter, a random draw changes nothing.
        let none = RetryPolicy(jitter: 0, random: { 0.9 })
        #expect(none.delay(forRetry: 2) == .seconds(1))
    }

    @Test func theDefaultJitterKeepsEveryWaitWithinItsLastQuarter() {
        let policy = RetryPolicy()
        for retry in 1...8 {
            let ceiling = policy.ceiling(forRetry: retry)
            let wait = policy.delay(forRetry: retry)
            #expect(wait <= ceiling)
            #expect(wait >= ceiling * 3 / 4)
        }
    }

    @Test func theClockAndTheScheduleAreTheOnesGiven() {
        let clock = ManualClock()
        let policy = RetryPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(5), multiplier: 3, clock: clock,
                                         random: { 0 })
        #expect(policy.clock as? ManualClock === clock)
        #expect((1...4).map { policy.delay(forRetry: $0) } == [.seconds(1), .seconds(3), .seconds(5), .seconds(5)])
    }

    @Test func aScheduleThatCannotGrowIsRefused() async {
        await #expect(processExitsWith: .failure) { _ = RetryPolicy(initialDelay: .zero) }
        await #expect(processExitsWith: .failure) { _ = RetryPolicy(multiplier: 0.5) }
        await #expect(processExitsWith: .failure) { _ = RetryPolicy(jitter: 2) }
    }
}
