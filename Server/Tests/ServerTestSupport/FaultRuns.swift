import Foundation

/// Which seeds a seeded fault suite (RandomFaultTests, InstanceFaultTests) plays, read from the same variables as the main package's
/// `RandomRuns` (Tests/TestSupport, not a product this package can use):
///
/// - quick mode (plain `swift test`): seeds `1 ... quickSeeds`;
/// - long mode (`LIVEDATA_LONG_MINUTES=<minutes>`): seeds `base, base + 1, …` until the minutes
///   have passed, at least `quickSeeds` of them; the base is `LIVEDATA_BASE_SEED`, else drawn at
///   random, and printed first;
/// - replay (`<seedVariable>=<seed>`): that seed alone, long if `LIVEDATA_LONG_MINUTES` is set.
///
/// The clock only decides how many seeds run; a seed always draws the same faults and actions.
/// ``playSeeds(_:)`` plays them and prints each seed's line with its replay command.
public struct FaultRuns: Sendable {
    /// The variable that replays one seed, such as `LIVEDATA_FAULT_SEED`.
    public let seedVariable: String
    /// The suite's name, for `swift test --filter` in the replay command and the printed lines.
    public let filter: String
    /// How many seeds a quick run plays, and a long one at least.
    public let quickSeeds: Int
    let longBudget: Duration?
    let longMinutes: String?
    /// The seed `seedVariable` names, when replaying one.
    public let replaySeed: UInt64?
    let baseSeed: UInt64

    /// The seeds the environment asks for.
    public init(seedVariable: String, filter: String, quickSeeds: Int, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.seedVariable = seedVariable
        self.filter = filter
        self.quickSeeds = quickSeeds
        if let text = environment["LIVEDATA_LONG_MINUTES"], let minutes = Double(text), minutes > 0 {
            longBudget = .milliseconds(Int64(minutes * 60_000))
            longMinutes = text
        } else {
            longBudget = nil
            longMinutes = nil
        }
        replaySeed = environment[seedVariable].flatMap { UInt64($0) }
        if longBudget == nil {
            baseSeed = 1
        } else if let base = environment["LIVEDATA_BASE_SEED"].flatMap({ UInt64($0) }), base > 0 {
            baseSeed = base
        } else {
            baseSeed = UInt64.random(in: 1_000...999_999_999)
        }
    }

    /// Whether `LIVEDATA_LONG_MINUTES` asked for a long run (seeds then play more actions).
    public var isLong: Bool { longBudget != nil }

    /// What one seed played (counts by name) and the first thing found wrong.
    public struct Outcome: Sendable {
        /// How many times each thing happened: messages, faults, kills.
        public var counts: [String: Int] = [:]
        /// What was found wrong, or nil when the seed passed.
        public var failure: String?

        /// Nothing played yet.
        public init() {}
    }

    /// What the seeds played together.
    public struct Summary: Sendable {
        /// How many seeds were played.
        public var seeds = 0
        /// The seeds' counts added up.
        public var totals: [String: Int] = [:]
        /// Each failed seed's failure with its replay command, for the test to record.
        public var failures: [String] = []
    }

    /// Plays `play` for each seed of the mode, until one fails or the mode's seeds are played
    /// (an error `play` throws is that seed's failure). Prints a line a seed (passed or FAILED,
    /// its counts, its replay command) and a summary line.
    @MainActor public func playSeeds(_ play: (UInt64) async throws -> Outcome) async -> Summary {
        var summary = Summary()
        summary.seeds = await forEachSeed { seed in
            var outcome: Outcome
            do {
                outcome = try await play(seed)
            } catch {
                outcome = Outcome()
                outcome.failure = "\(error)"
            }
            for (name, count) in outcome.counts { summary.totals[name, default: 0] += count }
            let verdict = outcome.failure == nil ? "passed" : "FAILED"
            print("\(filter) seed \(seed): \(verdict), \(Self.list(outcome.counts)); replay: \(replayCommand(seed: seed))")
            guard let failure = outcome.failure else { return true }
            summary.failures.append("seed \(seed): \(failure)\nreplay: \(replayCommand(seed: seed))")
            return false
        }
        print("\(filter) (\(mode)): \(summary.seeds) seeds, \(Self.list(summary.totals))")
        return summary
    }

    /// Counts as `3 messages, 1 restarts`, by name.
    private static func list(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// Calls `body` with each seed in turn until it returns false or the mode's seeds are played;
    /// returns how many were played.
    @MainActor private func forEachSeed(_ body: (UInt64) async -> Bool) async -> Int {
        if let replaySeed {
            _ = await body(replaySeed)
            return 1
        }
        if let longMinutes { print("\(filter) (long mode, \(longMinutes) min): seeds from LIVEDATA_BASE_SEED=\(baseSeed)") }
        let start = ContinuousClock.now
        var played = 0
        while played < quickSeeds || (longBudget.map { ContinuousClock.now - start < $0 } ?? false) {
            played += 1
            guard await body(baseSeed + UInt64(played - 1)) else { break }
        }
        return played
    }

    /// The command that replays `seed` in the mode it played in.
    public func replayCommand(seed: UInt64) -> String {
        var variables = "\(seedVariable)=\(seed)"
        if let longMinutes { variables = "LIVEDATA_BASE_SEED=\(baseSeed) \(variables) LIVEDATA_LONG_MINUTES=\(longMinutes)" }
        return "\(variables) swift test --package-path Server --filter \(filter)"
    }

    /// The mode, for the summary line.
    public var mode: String {
        if let replaySeed { return "replaying seed \(replaySeed)" }
        if let longMinutes { return "long mode, \(longMinutes) min, LIVEDATA_BASE_SEED=\(baseSeed)" }
        return "quick mode"
    }
}
