import Foundation

/// Which seeds a randomized test plays, in its quick mode, its long mode, or replaying one seed,
/// and the one-line command that replays a failure.
///
/// - Quick mode (plain `swift test`): seeds `1 ... quickSeeds`, a few seconds in all.
/// - Long mode (`LIVEDATA_LONG_MINUTES=<minutes>`): seeds `base, base + 1, …` until the minutes
///   have passed, and at least `quickSeeds` of them. The base is `LIVEDATA_BASE_SEED` when set,
///   else a random one, so that every long run explores seeds no run played before instead of
///   replaying `1, 2, 3`; the run prints it first, and the replay commands and the summary name
///   it. Every randomized suite of the fault tests reads the same variables, each spending the
///   whole budget on its own.
/// - Replay (`<seedVariable>=<seed>`): that seed alone, with the long mode's length when
///   `LIVEDATA_LONG_MINUTES` is set too (the replay command copies it).
///
/// The wall clock only decides how many seeds run, never what a seed does: a seed plays the same
/// steps in every mode and on every machine.
public struct RandomRuns: Sendable {
    /// The environment variable of the long mode's budget, in minutes.
    public static let longModeVariable = "LIVEDATA_LONG_MINUTES"
    /// The environment variable of the long mode's first seed.
    public static let baseSeedVariable = "LIVEDATA_BASE_SEED"
    /// Where a random base seed is drawn from: far from the quick mode's seeds, and short enough
    /// to copy from a log.
    public static let randomBaseSeeds: ClosedRange<UInt64> = 1_000 ... 999_999_999

    /// The variable that replays one seed, as `LIVEDATA_CHAT_SEED`.
    public let seedVariable: String
    /// The `swift test --filter` argument that selects the test.
    public let filter: String
    /// How many seeds the quick mode plays.
    public let quickSeeds: Int
    /// The long mode's budget, or nil in the quick mode.
    public let longBudget: Duration?
    /// The seed to replay, when the environment names one.
    public let replaySeed: UInt64?
    /// The first seed the mode plays: 1 in the quick mode; in the long mode
    /// `LIVEDATA_BASE_SEED`, or a random one drawn from ``randomBaseSeeds`` when it is unset.
    public let baseSeed: UInt64
    /// The long mode's minutes as the environment gave them.
    private let longMinutes: String?

    /// Reads the mode from the environment (or from `environment`, for tests of this type).
    public init(
        seedVariable: String, filter: String, quickSeeds: Int,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.seedVariable = seedVariable
        self.filter = filter
        self.quickSeeds = quickSeeds
        if let text = environment[Self.longModeVariable], let minutes = Double(text), minutes > 0 {
            longBudget = .milliseconds(Int64(minutes * 60_000))
            longMinutes = text
        } else {
            longBudget = nil
            longMinutes = nil
        }
        replaySeed = environment[seedVariable].flatMap { UInt64($0) }
        if longBudget == nil {
            baseSeed = 1
        } else if let text = environment[Self.baseSeedVariable] {
            guard let base = UInt64(text), base > 0, base <= UInt64.max - 1_000_000_000 else {
                preconditionFailure("\(Self.baseSeedVariable) must be a whole number from 1 up, not \"\(text)\"")
            }
            baseSeed = base
        } else {
            baseSeed = UInt64.random(in: Self.randomBaseSeeds)
        }
    }

    /// Whether the long mode is on: sequences should be long ones.
    public var isLong: Bool { longBudget != nil }

    /// Calls `body` with each seed to play, in order, until it returns false (a failure) or the
    /// mode's seeds are played. Returns how many seeds were played.
    @discardableResult
    public func forEachSeed(_ body: (UInt64) throws -> Bool) rethrows -> Int {
        announce()
        var schedule = Schedule(of: self)
        while let seed = schedule.next() {
            guard try body(seed) else { break }
        }
        return schedule.played
    }

    /// The async form of ``forEachSeed(_:)``.
    @discardableResult
    public func forEachSeed(_ body: (UInt64) async throws -> Bool) async rethrows -> Int {
        announce()
        var schedule = Schedule(of: self)
        while let seed = schedule.next() {
            guard try await body(seed) else { break }
        }
        return schedule.played
    }

    /// Prints where the long mode starts, before its first seed: a run that never ends (a hang,
    /// a crash) still says which seeds it was playing.
    private func announce() {
        guard isLong, replaySeed == nil else { return }
        print("\(filter) (long mode, \(longMinutes ?? "?") min): seeds from \(baseSeedAssignment)")
    }

    /// The base seed as it appears in commands: `LIVEDATA_BASE_SEED=<base>`.
    private var baseSeedAssignment: String { "\(Self.baseSeedVariable)=\(baseSeed)" }

    /// The seeds of a run, one at a time: the replayed one, or base, base + 1, … while the mode lasts.
    private struct Schedule {
        let runs: RandomRuns
        let clock = ContinuousClock()
        let start: ContinuousClock.Instant
        var played = 0

        init(of runs: RandomRuns) {
            self.runs = runs
            start = clock.now
        }

        mutating func next() -> UInt64? {
            if let replaySeed = runs.replaySeed {
                guard played == 0 else { return nil }
                played = 1
                return replaySeed
            }
            if played >= runs.quickSeeds {
                guard let budget = runs.longBudget, clock.now - start < budget else { return nil }
            }
            played += 1
            return runs.baseSeed + UInt64(played - 1)
        }
    }

    /// The command that replays `seed` exactly, in the mode it failed in. In the long mode it
    /// names the run's base seed too: the seed variable decides what plays, the base says which
    /// run found it (and, without the seed variable, replays the whole run).
    public func replayCommand(seed: UInt64) -> String {
        var variables = "\(seedVariable)=\(seed)"
        if let longMinutes { variables = "\(baseSeedAssignment) \(variables) \(Self.longModeVariable)=\(longMinutes)" }
        return "\(variables) swift test --filter \(filter)"
    }

    /// A line for the test log: what the mode played, as "LiveCollectionModelTests (long mode,
    /// 3 min, LIVEDATA_BASE_SEED=70000): 1,204 sequences, 240,800 steps".
    public func summary(_ counts: KeyValuePairs<String, Int>) -> String {
        let mode: String
        if let replaySeed {
            mode = "replaying seed \(replaySeed)"
        } else if let longMinutes {
            mode = "long mode, \(longMinutes) min, \(baseSeedAssignment)"
        } else {
            mode = "quick mode"
        }
        let parts = counts.map { "\($0.value.formatted()) \($0.key)" }
        return "\(filter) (\(mode)): " + parts.joined(separator: ", ")
    }
}
