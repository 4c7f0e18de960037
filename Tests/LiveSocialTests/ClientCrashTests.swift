// Runs `LiveTestHelper` as child processes: macOS and Linux only (iOS and its siblings have no
// `Process`).
#if os(macOS) || os(Linux)
import Testing
import TestSupport

/// A chat client killed with `SIGKILL` at random points, again and again, loses nothing and sends
/// nothing twice: the `client-loop` helper (a `SocialClient` over a cache file, with the sample's
/// set-up of an `EmbeddedServer` of its own on a shared server file) sends, edits and reacts; the
/// test kills it after a seeded number of its output lines and starts it again on the same files,
/// then lets it drain its outbox. Checked with SQL on the files, independently of the library:
/// the cache opens every time without a recovery; every action the helper printed as accepted is
/// on the server; no send is on the server twice; every message shown pending is on the server
/// exactly once after the drain, and nothing in the cache is pending, failed or out of sync.
///
/// Quick mode: two seeds of 6 kills. Long mode (`LIVEDATA_LONG_MINUTES`): seeds of 12 longer runs
/// until the budget is spent. `LIVEDATA_CRASH_SEED` replays one seed's kill schedule.
@Suite
struct ClientCrashTests {
    static let runs = RandomRuns(seedVariable: "LIVEDATA_CRASH_SEED", filter: "ClientCrashTests", quickSeeds: 2)

    @Test func aKilledClientLosesNothingSendsNothingTwiceAndDrainsItsOutbox() async throws {
        let runs = Self.runs
        var total = CrashPlay.Outcome()
        var failed = false
        let seeds = try await runs.forEachSeed { seed in
            let outcome = try await CrashPlay(seed: seed, isLong: runs.isLong).play()
            total.kills += outcome.kills
            total.acceptedActions += outcome.acceptedActions
            total.pendingAtKill += outcome.pendingAtKill
            total.answersCut += outcome.answersCut
            total.pendingAtOpen += outcome.pendingAtOpen
            total.resent += outcome.resent
            total.acceptedEdits += outcome.acceptedEdits
            total.acceptedReactions += outcome.acceptedReactions
            total.acceptedRemovals += outcome.acceptedRemovals
            guard let failure = outcome.failure else { return true }
            Issue.record(Comment(rawValue: "\(failure)\nreplay: \(runs.replayCommand(seed: seed))"))
            failed = true
            return false
        }
        print(runs.summary([
            "runs": seeds, "kills": total.kills, "actions accepted": total.acceptedActions,
            "pending at kill": total.pendingAtKill, "answers cut by a kill": total.answersCut,
            "pending at restart": total.pendingAtOpen,
            "resent after restart": total.resent,
        ]))
        guard !failed, runs.replaySeed == nil else { return }
        // Coverage: the kills land, and every kind of action is played and accepted.
        #expect(total.kills >= seeds * (runs.isLong ? 8 : 4), "most runs are killed before they end")
        #expect(total.acceptedEdits > 0)
        #expect(total.acceptedReactions > 0)
        #expect(total.acceptedRemovals > 0)
        #expect(total.pendingAtOpen > 0, "a run found messages an earlier one left pending")
        if runs.isLong { #expect(total.answersCut > 0, "kills fell between the server's commit and the client's") }
    }
}
#endif
