import LiveSocialServer
import Testing

@Suite(.timeLimit(.minutes(3))) struct ManualClockTests {
    @Test func startsAtZeroAndAdvances() {
        let clock = ManualClock()
        #expect(clock.now == ManualClock.Instant(offset: .zero))
        clock.advance(by: .seconds(2))
        clock.advance(to: ManualClock.Instant(offset: .seconds(5)))
        #expect(clock.now.offset == .seconds(5))
        clock.advance(to: ManualClock.Instant(offset: .seconds(1)))  // never back in time
        #expect(clock.now.offset == .seconds(5))
        #expect(clock.now.advanced(by: .seconds(1)).offset == .seconds(6))
        #expect(ManualClock.Instant(offset: .seconds(1)).duration(to: clock.now) == .seconds(4))
    }

    @Test func sleeperWaitsUntilTheDeadlineIsReached() async throws {
        let clock = ManualClock()
        let woke = Flag()
        let sleeper = Task {
            try await clock.sleep(for: .seconds(10))
            woke.set()
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(9))
        #expect(!woke.isSet)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(woke.isSet)
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepersResumeInDeadlineOrder() async throws {
        let clock = ManualClock()
        let flags = [Flag(), Flag(), Flag()]
        let deadlines: [Duration] = [.seconds(3), .seconds(1), .seconds(2)]
        let tasks = deadlines.enumerated().map { index, deadline in
            Task {
                try await clock.sleep(for: deadline)
                flags[index].set()
            }
        }
        await clock.waitForSleepers(3)
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 2)
        try await tasks[1].value
        #expect(!flags[0].isSet && !flags[2].isSet)
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 1)
        try await tasks[2].value
        #expect(!flags[0].isSet)
        clock.advance(by: .seconds(1))
        try await tasks[0].value
        #expect(flags.allSatisfy { $0.isSet })
    }

    @Test func oneAdvanceWakesEveryDueSleeperAndNoOther() async throws {
        let clock = ManualClock()
        let early = Task { try await clock.sleep(for: .seconds(1)) }
        let late = Task { try await clock.sleep(for: .seconds(2)) }
        let hour = Task { try await clock.sleep(for: .seconds(3_600)) }
        await clock.waitForSleepers(3)
        clock.advance(by: .seconds(2))
        try await early.value
        try await late.value
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(3_600))  // an hour of clock time, no wall-clock wait
        try await hour.value
    }

    @Test func sleepingUntilAPassedDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(5)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperWakesItWithCancellationError() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(60))  // nothing left to resume
    }

    @Test func aTaskCancelledBeforeSleepingThrowsWithoutWaiting() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func waitForSleepersReturnsAtOnceWhenEnoughSleep() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        await clock.waitForSleepers(1)
        await clock.waitForSleepers(0)
        clock.advance(by: .seconds(1))
        try await sleeper.value
    }
}
