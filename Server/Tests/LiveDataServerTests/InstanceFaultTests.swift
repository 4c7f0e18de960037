import Foundation
import LiveSocial
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
        var totals: [String: Int] = [:]
        let seeds = await runs.forEachSeed { seed in
            var outcome = Outcome()
            do {
                outcome = try await PostgresInstances.with { try await play(seed: seed, actions: runs.isLong ? 30 : 12, on: $0) }
            } catch {
                outcome.failure = "\(error)"
            }
            for (name, count) in outcome.counts { totals[name, default: 0] += count }
            let counts = outcome.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            print("InstanceFaultTests seed \(seed): \(outcome.failure == nil ? "passed" : "FAILED"), \(counts); replay: \(runs.replayCommand(seed: seed))")
            guard let failure = outcome.failure else { return true }
            Issue.record(Comment(rawValue: "seed \(seed): \(failure)\nreplay: \(runs.replayCommand(seed: seed))"))
            return false
        }
        let summary = totals.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print("InstanceFaultTests (\(runs.mode)): \(seeds) seeds, \(summary)")
    }

    /// What one seed played, and the first thing found wrong.
    struct Outcome {
        var counts: [String: Int] = [:]
        var failure: String?
    }

    @MainActor private func play(seed: UInt64, actions: Int, on instances: PostgresInstances) async throws -> Outcome {
        var outcome = Outcome()
        var random = SplitMix64(seed: seed ^ 0x1257_A11C)
        let passwords = try instances.passwords()
        let proxies = try [instances.ports, instances.ports.reversed()].map { ports in
            let proxy = try FaultProxy(upstreamPorts: ports)
            proxy.setRule { trigger in
                guard case .request(let line, _) = trigger, line.hasPrefix("POST /v1/mutations") else { return nil }
                return FaultScript(toClient: [.delay(milliseconds: 30)])
            }
            return proxy
        }
        defer { for proxy in proxies { proxy.stop() } }
        let clients = instances.folder.appendingPathComponent("clients")
        // Sign-ins hash passwords at the real cost in a debug build: 3 s is too short on a busy machine.
        let configuration = NetworkChatter.configuration(requestTimeout: 10)
        let ada = try await NetworkChatter(
            "ada", password: passwords["ada"] ?? "", server: proxies[0].url, folder: clients, configuration: configuration)
        let alan = try await NetworkChatter(
            "alan", password: passwords["alan"] ?? "", server: proxies[1].url, folder: clients, configuration: configuration)
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
                    sender.send(text, to: channel)
                    texts.append(text)
                    // As the user sees it: the message shows, pending or already sent; the
                    // next action lands while it may still be on its way.
                    try await eventually("\"\(text)\" shows") {
                        let pending = try await sender.unsentTexts().contains(text)
                        let stored = try await sender.storedTexts(in: channel)[text] != nil
                        return pending || stored
                    }
                }
            }
            for index in instances.running.indices { try await instances.restart(index) }
            let explain: () async -> String = {
                let adaUnsent = (try? await ada.unsentTexts()) ?? []
                let alanUnsent = (try? await alan.unsentTexts()) ?? []
                return "ada unsent \(adaUnsent), alan unsent \(alanUnsent), "
                    + "ada \(ada.api.currentConnectionState), alan \(alan.api.currentConnectionState)"
            }
            try await eventually("both users reconnect", explain: explain) { ada.client.isConnected && alan.client.isConnected }
            try await eventually("every pending message is sent", explain: explain) {
                let adaUnsent = try await ada.unsentTexts()
                let alanUnsent = try await alan.unsentTexts()
                return adaUnsent.isEmpty && alanUnsent.isEmpty
            }
            let stored = try await ServerMessages(in: channel, api: ada.api)
            var wrong = texts.filter { stored.byText[$0] != 1 }.map { "\"\($0)\" stored \(stored.byText[$0] ?? 0) times" }
            wrong += try await instances.databaseProblems()
            if !wrong.isEmpty { outcome.failure = wrong.joined(separator: "; ") }
            for chatter in [ada, alan] where outcome.failure == nil {
                try await eventually("\(chatter.userId) shows every message once", explain: {
                    let shown = (try? await chatter.storedTexts(in: channel)) ?? [:]
                    return "\(chatter.userId) misses \(texts.filter { shown[$0] != 1 })"
                }) {
                    let shown = try await chatter.storedTexts(in: channel)
                    return texts.allSatisfy { shown[$0] == 1 }
                }
            }
        } catch {
            outcome.failure = "\(error)"
        }
        outcome.counts["messages", default: 0] += texts.count
        await ada.close()
        await alan.close()
        return outcome
    }
}
