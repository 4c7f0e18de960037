import Foundation
import LiveSocial
import ServerTestSupport
import Testing

/// Two chatting users on two `livedata-server` instances over one PostgreSQL database
/// (``PostgresInstances``), while a seed kills instances with `SIGKILL`, starts them again and
/// restarts PostgreSQL at random points between sends that are still under way (issue 23). Each
/// user reaches the instances through a failing-over ``FaultProxy`` (ada the first instance
/// first, alan the second) that holds mutation answers 30 ms. When the seed's actions are played
/// and every instance runs again: every message shown pending is stored exactly once, nothing
/// stays pending, both users show every message once, and the database holds no half-done write.
///
/// Quick mode: 2 seeds of 12 actions. Long mode (`LIVEDATA_LONG_MINUTES`): seeds of 30 actions
/// from `LIVEDATA_BASE_SEED` until the budget is spent. `LIVEDATA_INSTANCE_FAULT_SEED` replays
/// one seed's actions; every seed prints its replay command, and so does every failure.
@Suite("Instances and PostgreSQL killed at random", .serialized)
struct InstanceFaultTests {
    static let runs = FaultRuns(seedVariable: "LIVEDATA_INSTANCE_FAULT_SEED", filter: "InstanceFaultTests", quickSeeds: 2)

    @Test @MainActor func messagesThroughRandomKillsAndRestartsAreStoredOnceAndShownToBoth() async {
        let runs = Self.runs
        let summary = await runs.playSeeds { seed in
            try await PostgresInstances.with { try await play(seed: seed, actions: runs.isLong ? 30 : 12, on: $0) }
        }
        for failure in summary.failures { Issue.record(Comment(rawValue: failure)) }
    }

    @MainActor private func play(seed: UInt64, actions: Int, on instances: PostgresInstances) async throws -> FaultRuns.Outcome {
        var outcome = FaultRuns.Outcome()
        var random = SplitMix64(seed: seed ^ 0x1257_A11C)
        let (ada, alan, proxies) = try await instances.chatters()
        defer { for proxy in proxies { proxy.stop() } }
        let channel = "ada-alan"
        var texts = ["seed \(seed) start"]
        do {
            try await eventually("both users are connected") { ada.client.isConnected && alan.client.isConnected }
            ada.send(texts[0], to: channel)
            try await eventually("alan sees the first message") { try await alan.storedTexts(in: channel)[texts[0]] == 1 }
            for step in 1...actions {
                switch Int.random(in: 0..<10, using: &random) {
                case 0, 1:
                    // Kill one instance; the other is started again if it was down, so one always runs.
                    let victim = Int.random(in: 0...1, using: &random)
                    try await instances.restart(1 - victim)
                    await instances.kill(victim)
                    outcome.counts["instance kills", default: 0] += 1
                case 2:
                    try await instances.restartDatabase()
                    outcome.counts["PostgreSQL restarts", default: 0] += 1
                case 3:
                    for index in instances.running.indices where instances.running[index] == nil {
                        try await instances.restart(index)
                        outcome.counts["instance restarts", default: 0] += 1
                    }
                default:
                    let sender = Bool.random(using: &random) ? ada : alan
                    let text = "seed \(seed) step \(step) from \(sender.userId)"
                    texts.append(text)
                    try await sender.sendShowing(text, to: channel)
                }
            }
            for index in instances.running.indices { try await instances.restart(index) }
            outcome.failure = try await NetworkChatter.settle(
                [ada, alan], texts: texts, in: channel, problems: { try await instances.databaseProblems() })
        } catch {
            outcome.failure = "\(error)"
        }
        outcome.counts["messages", default: 0] += texts.count
        await ada.close()
        await alan.close()
        return outcome
    }
}
