import TestSupport
import Testing

/// The modes of ``RandomRuns``, which every randomized fault test uses to pick its seeds.
@Suite struct RandomRunsTests {
    @Test func theQuickModePlaysItsSeedsInOrder() {
        let runs = RandomRuns(seedVariable: "X_SEED", filter: "XTests", quickSeeds: 5, environment: [:])
        var played: [UInt64] = []
        let count = runs.forEachSeed { played.append($0); return true }
        #expect(played == [1, 2, 3, 4, 5])
        #expect(count == 5)
        #expect(!runs.isLong)
        #expect(runs.replayCommand(seed: 4) == "X_SEED=4 swift test --filter XTests")
    }

    @Test func aFailureStopsTheRunAtItsSeed() {
        let runs = RandomRuns(seedVariable: "X_SEED", filter: "XTests", quickSeeds: 5, environment: [:])
        var played: [UInt64] = []
        let count = runs.forEachSeed { played.append($0); return $0 != 3 }
        #expect(played == [1, 2, 3])
        #expect(count == 3)
    }

    @Test func aSeedVariableReplaysThatSeedAlone() {
        let runs = RandomRuns(seedVariable: "X_SEED", filter: "XTests", quickSeeds: 5, environment: ["X_SEED": "77"])
        var played: [UInt64] = []
        runs.forEachSeed { played.append($0); return true }
        #expect(played == [77])
        #expect(runs.summary(["sequences": 1]) == "XTests (replaying seed 77): 1 sequences")
    }

    @Test func theLongModeKeepsItsLengthInTheReplayCommand() {
        let runs = RandomRuns(
            seedVariable: "X_SEED", filter: "XTests", quickSeeds: 2,
            environment: ["LIVEDATA_LONG_MINUTES": "0.001"])
        #expect(runs.isLong)
        var played = 0
        // 60 ms of budget: at least the quick seeds, then more until the budget is spent.
        runs.forEachSeed { _ in played += 1; return played < 10_000_000 }
        #expect(played >= 2)
        #expect(runs.replayCommand(seed: 9) == "X_SEED=9 LIVEDATA_LONG_MINUTES=0.001 swift test --filter XTests")
    }
}
