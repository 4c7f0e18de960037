import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing
import TestSupport

/// A `SocialClient` whose cache file is damaged, talking to an `EmbeddedServer` on a file of its
/// own: the client recovers (its cache moved aside and rebuilt from the server) or fails with an
/// error naming the cache file, and the server's file is row for row and byte for byte what it
/// was: handling the damage never touches the server.
///
/// Quick mode plays one case per kind of damage; `LIVEDATA_LONG_MINUTES=<m>` plays seeds until
/// the budget is spent; `LIVEDATA_CORRUPTION_SEED=<seed>` replays one seed.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(60)))
struct SocialClientCorruptionTests {
    static let runs = RandomRuns(seedVariable: "LIVEDATA_CORRUPTION_SEED", filter: "SocialClientCorruptionTests",
                                 quickSeeds: CacheFileDamage.allCases.count)

    @Test func aDamagedCacheIsRecoveredOrReportedAndTheServerIsNeverTouched() async throws {
        let runs = Self.runs
        let counts = CaseCounts()
        await runs.forEachSeed { @MainActor @Sendable seed in
            var run = ClientDamageRun(seed: seed)
            await run.play()
            counts.add(run.damage.rawValue)
            counts.add(run.outcome)
            guard run.problems.isEmpty else {
                Issue.record(Comment(rawValue: """
                    SocialClient broke the corruption rule: seed \(seed), \(run.damage.rawValue)
                    \(run.problems.map { "- " + $0 }.joined(separator: "\n"))
                    Steps:
                    \(run.steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
                    Replay: \(runs.replayCommand(seed: seed))
                    """))
                counts.failed = true
                return false
            }
            return true
        }
        print(runs.summary([
            "corruptions": CacheFileDamage.allCases.reduce(0) { $0 + counts[$1.rawValue] },
            "truncations": counts["truncate"], "garbage headers": counts["garbageHeader"],
            "garbage schema pages": counts["garbageSchema"], "garbage pages": counts["garbagePage"],
            "recovered at open": counts["recoveredAtOpen"], "recovered while running": counts["recoveredWhileRunning"],
            "thrown at open": counts["thrownAtOpen"], "unaffected": counts["unaffected"],
        ]))
        guard !counts.failed, runs.replaySeed == nil else { return }
        for damage in CacheFileDamage.allCases { #expect(counts[damage.rawValue] >= 1, "\(damage) never played") }
        #expect(counts["recoveredAtOpen"] >= 1)
    }
}
