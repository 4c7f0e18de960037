import Foundation
import LiveSocial
import TestSupport
import Testing

/// Plays seeded random sequences against a real `SocialClient` (over a cache file) and an
/// `EmbeddedServer` (over a file, on a manual clock): the user's sends (refused, answered late,
/// answers lost), other users' messages, edits and deletes, offline periods with short and huge
/// gaps, collections opened at random starting points and paged both ways, app restarts over the
/// same cache and `dispose`. After every step, once everything settled, the collection is
/// compared with the server's data read with plain SQL and with its own delegate calls (see
/// `ChatModelRun`).
///
/// Quick mode in `swift test`; `LIVEDATA_LONG_MINUTES=<m>` plays longer sequences until the
/// budget is spent; `LIVEDATA_CHAT_SEED=<seed>` replays one.
@MainActor
@Suite(.timeLimit(.minutes(30)))
struct MessageCollectionModelTests {
    static let quickSteps = 60
    static let longSteps = 300

    @Test func randomSequencesKeepTheCollectionTrueToTheServer() async throws {
        let runs = RandomRuns(seedVariable: "LIVEDATA_CHAT_SEED", filter: "MessageCollectionModelTests", quickSeeds: 6)
        let steps = runs.isLong ? Self.longSteps : Self.quickSteps
        let tally = ChatModelTally()
        try await runs.forEachSeed { @Sendable @MainActor seed in
            let (failure, played) = try await ChatModelRun.play(seed: seed, steps: steps, replay: runs.replayCommand(seed: seed))
            tally.coverage.add(played)
            if let failure {
                Issue.record(Comment(rawValue: failure))
                tally.failed = true
                return false
            }
            return true
        }
        let coverage = tally.coverage
        print(runs.summary(coverage.summary))
        guard !tally.failed, runs.replaySeed == nil else { return }

        // The generator must reach every kind of step, or agreeing with the model proves little.
        #expect(coverage.sends > 20)
        #expect(coverage.refused > 2)
        #expect(coverage.held > 2)
        #expect(coverage.lostAnswers > 1)
        #expect(coverage.otherMessages > 20)
        #expect(coverage.ownEdits > 1)
        #expect(coverage.ownDeletes > 1)
        #expect(coverage.otherEdits > 1)
        #expect(coverage.otherDeletes > 1)
        #expect(coverage.offline > 2)
        #expect(coverage.shortGaps > 0)
        #expect(coverage.hugeGaps > 0)
        #expect(coverage.pagesPrevious > 2)
        #expect(coverage.pagesNext > 0)
        #expect(coverage.offlinePages > 0)
        #expect(coverage.sendsDuringLoads > 2)
        #expect(coverage.startsInThePast > 2)
        #expect(coverage.restarts > 1)
        #expect(coverage.pendingAcrossRestarts > 0)
        #expect(coverage.disposes > 2)
        #expect(coverage.delegateCalls > 50)
    }
}
