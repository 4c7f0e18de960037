@testable import LiveSocial
import LiveSocialServer
import Testing

/// The waits after failures in a row, for an action on an owner the schedule holds weakly (a
/// chat collection's catch-up retry), on a clock the test moves.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct RetryScheduleTests {
    /// Stands for the collection that keeps the schedule.
    final class Owner: Sendable {}

    /// Stands for what the action holds: released once the wait's task is over, whatever it did.
    final class Token: Sendable {}

    /// The owners the action was called with.
    @MainActor final class Calls {
        var owners: [Owner] = []
    }

    @Test func anOwnersActionRunsWithTheOwnerAfterTheWait() async throws {
        let clock = ManualClock()
        let schedule = RetrySchedule()
        let owner = Owner()
        let calls = Calls()
        schedule.schedule(RetryPolicy(clock: clock, random: { 0 }), for: owner) { calls.owners.append($0) }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(499))
        #expect(clock.sleeperCount == 1, "the first retry waits half a second")
        #expect(calls.owners.isEmpty)
        clock.advance(by: .milliseconds(1))
        try await waitUntilHolds { !calls.owners.isEmpty }
        #expect(calls.owners.count == 1)
        #expect(calls.owners.first === owner)
        #expect(schedule.failuresInARow == 1)
    }

    @Test func theWaitDoesNotKeepItsOwnerAliveNorCallsTheActionWithoutIt() async throws {
        let clock = ManualClock()
        let schedule = RetrySchedule()
        var owner: Owner? = Owner()
        weak let goneOwner = owner
        var token: Token? = Token()
        weak let goneToken = token
        let calls = Calls()
        schedule.schedule(RetryPolicy(clock: clock, random: { 0 }), for: owner!) { [token] in
            _ = token
            calls.owners.append($0)
        }
        await clock.waitForSleepers(1)
        owner = nil
        token = nil
        #expect(goneOwner == nil, "the wait under way holds its owner weakly")
        #expect(goneToken != nil, "the wait under way holds its action")
        clock.advance(by: .milliseconds(500))
        // The action (and its token) goes when the wait's task ends, having run it or not.
        try await waitUntilHolds { goneToken == nil }
        #expect(calls.owners.isEmpty)
    }
}
