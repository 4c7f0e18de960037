import LiveData
import LiveSocialServer
import SampleApp
import Testing

/// The notice line: each notice lasts its lifetime of the clock given, a newer one replaces it,
/// and an empty one clears it. The clock is manual: nothing expires unless a test advances it.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct NoticeViewModelTests {
    private func line() -> (NoticeViewModel, ManualClock, Recording<String>) {
        let clock = ManualClock()
        let line = NoticeViewModel(lifetime: .seconds(5), clock: clock)
        return (line, clock, line.text.record())
    }

    @Test func aNoticeShowsForItsLifetimeThenGoes() async throws {
        let (line, clock, text) = line()
        #expect(text.values == [""])
        line.show("caught up: 3 message changes")
        #expect(text.latest == "caught up: 3 message changes", "at once")
        text.log.skipUnread()
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(4999))
        #expect(clock.sleeperCount == 1, "not before its lifetime")
        #expect(text.latest == "caught up: 3 message changes")
        clock.advance(by: .milliseconds(1))
        try await text.next { $0.isEmpty }
        #expect(text.values == ["", "caught up: 3 message changes", ""])
        #expect(clock.sleeperCount == 0)
    }

    @Test func aNewerNoticeReplacesTheOlderAndLivesItsOwnLifetime() async throws {
        let (line, clock, text) = line()
        line.show("older")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3))
        line.show("newer")
        #expect(text.latest == "newer")
        await clock.waitForSleepers(1)
        // The older notice's end passes: it clears nothing.
        clock.advance(by: .seconds(3))
        #expect(clock.sleeperCount == 1, "only the newer notice waits")
        #expect(text.latest == "newer")
        text.log.skipUnread()
        clock.advance(by: .seconds(2))
        try await text.next { $0.isEmpty }
        #expect(text.values == ["", "older", "newer", ""])
    }

    @Test func theSameNoticeAgainStartsItsLifetimeAgain() async throws {
        let (line, clock, text) = line()
        line.show("offline")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        line.show("offline")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        #expect(text.latest == "offline")
        #expect(text.values == ["", "offline"], "told once: it did not change")
        text.log.skipUnread()
        clock.advance(by: .seconds(1))
        try await text.next { $0.isEmpty }
    }

    @Test func clearOrAnEmptyNoticeEmptiesTheLineAtOnce() async throws {
        let (line, clock, text) = line()
        line.show("one")
        line.clear()
        #expect(text.latest == "")
        line.show("two")
        line.show("")
        #expect(text.latest == "")
        #expect(clock.sleeperCount == 0, "nothing left to expire")
        #expect(text.values == ["", "one", "", "two", ""])
    }
}
