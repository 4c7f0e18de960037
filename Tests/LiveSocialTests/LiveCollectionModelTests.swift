import Foundation
import LiveRepository
import LiveSocial
import Testing
import TestSupport

/// Plays seeded random sequences against a real `LiveCollection` (a `SocialClient` over a cache,
/// talking to an `EmbeddedServer` through a fault-injecting `FaultyAPI`) and compares it, after
/// every step, with a reference computed in the test: the rows the client was told about, the
/// query written out by hand, and the documented window rule (`CollectionReference`).
///
/// Steps: server inserts, updates, deletes and moves in sort order (the channel list); events
/// delivered, delayed, duplicated and dropped (a disconnection, then the catch-up through the
/// change log that the client makes by itself when the connection comes back);
/// local mutations that succeed or are refused; `nextPage`/`previousPage`/`resetPage`, some of
/// whose server pages fail; observers added, invalidated and released; and, over a cache file, a
/// second client writing to the same file, picked up by `checkForExternalChanges()`.
///
/// Quick mode in `swift test`; `LIVEDATA_LONG_MINUTES=<m>` plays long sequences until the budget
/// is spent; `LIVEDATA_COLLECTION_SEED=<seed>` replays one sequence (see `RandomRuns`).
@Suite struct LiveCollectionModelTests {
    static let runs = RandomRuns(
        seedVariable: "LIVEDATA_COLLECTION_SEED", filter: "LiveCollectionModelTests", quickSeeds: 16)

    @Test @MainActor func randomSequencesMatchTheReference() async {
        let runs = Self.runs
        let steps = runs.isLong ? 300 : 25
        let coverage = CoverageTally()
        let played = await runs.forEachSeed { @MainActor @Sendable seed in
            let run = CollectionModelRun(seed: seed)
            coverage.add("subject." + run.subject.rawValue)
            if run.usesFile { coverage.add("fileSequences") }
            let failure = await run.play(steps: steps, replay: runs.replayCommand(seed: seed))
            coverage.add(run.coverage)
            if let failure {
                Issue.record(Comment(rawValue: failure))
                coverage.add("failures")
                return false
            }
            return true
        }
        print(runs.summary([
            "sequences": played, "steps": coverage["steps"],
            "file-cache sequences": coverage["fileSequences"],
            "events delivered": coverage["eventsDelivered"],
            "duplicated": coverage["eventsDuplicated"],
            "delayed": coverage["eventsDelayed"],
            "dropped": coverage["eventsDropped"],
            "catch-ups": coverage["catchUps"],
            "cross-process writes": coverage["crossProcessWrites"],
            "moves delivered": coverage["movesDelivered"],
            "changes checked": coverage["changesChecked"],
            "server pages": coverage["serverPages"],
            "failed pages": coverage["failedPages"],
        ]))
        guard runs.replaySeed == nil, played >= runs.quickSeeds, coverage["failures"] == 0 else { return }

        // The generator must reach every kind of step, or matching the reference proves little.
        for subject in CollectionSubject.allCases { #expect(coverage["subject." + subject.rawValue] >= 3, "\(subject) sequences") }
        #expect(coverage["fileSequences"] >= 3)
        for name in [
            "serverInserts", "serverUpdates", "serverDeletes", "serverMoves", "releases", "disconnects", "reconnects",
            "localMutations", "refusedLocalMutations", "grows", "resets", "observersAdded", "observersInvalidated",
            "observersReleased", "externalWrites", "clockAdvances", "crossProcessWrites", "warmStarts",
            "nextPages", "previousPages", "eventsDelivered", "eventsDuplicated", "eventsDelayed", "eventsDropped",
            "changeLogRecords", "catchUps", "movesDelivered", "failedPages", "dataStatusErrors", "localBeforeFresh",
            "eventsDuringPages", "eventsDuringPages.delivered",
        ] {
            #expect(coverage[name] >= 3, "the generator reached \(name) \(coverage[name]) times")
        }
        #expect(coverage["changesChecked"] >= 200, "changes checked against consecutive snapshots")
        #expect(coverage["steps"] == played * steps)
    }
}
