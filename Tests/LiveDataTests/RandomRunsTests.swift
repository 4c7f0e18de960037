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
        #expect(runs.replayCommand(seed: 9).hasSuffix(" X_SEED=9 LIVEDATA_LONG_MINUTES=0.001 swift test --filter XTests"))
    }

    @Test func theLongModeStartsAtItsBaseSeedAndNamesItInEveryReplayLine() {
        let runs = RandomRuns(
            seedVariable: "X_SEED", filter: "XTests", quickSeeds: 3,
            environment: ["LIVEDATA_LONG_MINUTES": "0.001", "LIVEDATA_BASE_SEED": "70000"])
        #expect(runs.baseSeed == 70_000)
        var played: [UInt64] = []
        runs.forEachSeed { played.append($0); return played.count < 3 }
        #expect(played == [70_000, 70_001, 70_002])
        #expect(runs.replayCommand(seed: 70_002)
            == "LIVEDATA_BASE_SEED=70000 X_SEED=70002 LIVEDATA_LONG_MINUTES=0.001 swift test --filter XTests")
        #expect(runs.summary(["sequences": 3]) == "XTests (long mode, 0.001 min, LIVEDATA_BASE_SEED=70000): 3 sequences")
    }

    @Test func withoutABaseSeedTheLongModeDrawsOneAndTheQuickModeIgnoresIt() {
        let drawn = (0..<8).map { _ in
            RandomRuns(seedVariable: "X_SEED", filter: "XTests", quickSeeds: 1, environment: ["LIVEDATA_LONG_MINUTES": "1"]).baseSeed
        }
        #expect(drawn.allSatisfy(RandomRuns.randomBaseSeeds.contains))
        #expect(Set(drawn).count > 1, "eight runs do not all start at one seed")

        let quick = RandomRuns(seedVariable: "X_SEED", filter: "XTests", quickSeeds: 2, environment: ["LIVEDATA_BASE_SEED": "70000"])
        var played: [UInt64] = []
        quick.forEachSeed { played.append($0); return true }
        #expect(played == [1, 2], "the quick mode always plays the same seeds")
    }
}
