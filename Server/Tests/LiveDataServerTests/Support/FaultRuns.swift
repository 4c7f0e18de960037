import Foundation

/// Which seeds the random-fault suite plays, read from the same variables as the main package's
/// `RandomRuns` (Tests/TestSupport, not a product this package can use):
///
/// - quick mode (plain `swift test`): seeds `1 ... quickSeeds`;
/// - long mode (`LIVEDATA_LONG_MINUTES=<minutes>`): seeds `base, base + 1, …` until the minutes
///   have passed, at least `quickSeeds` of them; the base is `LIVEDATA_BASE_SEED`, else drawn at
///   random, and printed first;
/// - replay (`<seedVariable>=<seed>`): that seed alone, long if `LIVEDATA_LONG_MINUTES` is set.
///
/// The clock only decides how many seeds run; a seed always draws the same faults and actions.
struct FaultRuns: Sendable {
    let seedVariable: String
    let filter: String
    let quickSeeds: Int
    let longBudget: Duration?
    let longMinutes: String?
    let replaySeed: UInt64?
    let baseSeed: UInt64

    init(seedVariable: String, filter: String, quickSeeds: Int, environment: [String: String] = ProcessInfo.processInfo.environment) {
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

    var isLong: Bool { longBudget != nil }

    /// Calls `body` with each seed in turn until it returns false or the mode's seeds are played;
    /// returns how many were played.
    @MainActor func forEachSeed(_ body: (UInt64) async throws -> Bool) async rethrows -> Int {
        if let replaySeed {
            _ = try await body(replaySeed)
            return 1
        }
        if let longMinutes { print("\(filter) (long mode, \(longMinutes) min): seeds from LIVEDATA_BASE_SEED=\(baseSeed)") }
        let start = ContinuousClock.now
        var played = 0
        while played < quickSeeds || (longBudget.map { ContinuousClock.now - start < $0 } ?? false) {
            played += 1
            guard try await body(baseSeed + UInt64(played - 1)) else { break }
        }
        return played
    }

    /// The command that replays `seed` in the mode it played in.
    func replayCommand(seed: UInt64) -> String {
        var variables = "\(seedVariable)=\(seed)"
        if let longMinutes { variables = "LIVEDATA_BASE_SEED=\(baseSeed) \(variables) LIVEDATA_LONG_MINUTES=\(longMinutes)" }
        return "\(variables) swift test --package-path Server --filter \(filter)"
    }

    /// The mode, for the summary line.
    var mode: String {
        if let replaySeed { return "replaying seed \(replaySeed)" }
        if let longMinutes { return "long mode, \(longMinutes) min, LIVEDATA_BASE_SEED=\(baseSeed)" }
        return "quick mode"
    }
}
