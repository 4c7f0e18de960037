import Foundation
import LiveSocial
import Testing

/// Two users chatting through a ``FaultProxy`` that plays seeded random faults on the requests
/// (delays, drips, stalls, cuts and resets, both ways: ``RandomFaults``) and now and then resets
/// every connection, the event streams included. When the faults stop, every message each user
/// saw pending is stored on the server exactly once, nothing stays pending, and each user shows
/// every message once (their clients reconnected and caught up).
///
/// Quick mode: 3 seeds of 16 actions. Long mode (`LIVEDATA_LONG_MINUTES`): seeds of 40 actions
/// until the budget is spent. `LIVEDATA_FAULT_SEED` replays one seed's faults and actions; the
/// timing of the network decides only which request meets which fault. Every seed prints a line
/// with its replay command.
@Suite("Random faults")
struct RandomFaultTests {
    static let runs = FaultRuns(seedVariable: "LIVEDATA_FAULT_SEED", filter: "RandomFaultTests", quickSeeds: 3)

    @Test @MainActor func messagesThroughRandomFaultsAreStoredOnceAndShownToBoth() async throws {
        let runs = Self.runs
        var totals: [String: Int] = [:]
        var failed = false
        let seeds = try await runs.forEachSeed { seed in
            let outcome = try await play(seed: seed, actions: runs.isLong ? 40 : 16)
            for (name, count) in outcome.counts { totals[name, default: 0] += count }
            let counts = outcome.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            print("RandomFaultTests seed \(seed): \(outcome.failure == nil ? "passed" : "FAILED"), \(counts); replay: \(runs.replayCommand(seed: seed))")
            guard let failure = outcome.failure else { return true }
            Issue.record(Comment(rawValue: "seed \(seed): \(failure)\nreplay: \(runs.replayCommand(seed: seed))"))
            failed = true
            return false
        }
        let summary = totals.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print("RandomFaultTests (\(runs.mode)): \(seeds) seeds, \(summary)")
        guard !failed, runs.replaySeed == nil else { return }
        #expect(totals["cut before the answer", default: 0] > 0, "answers were lost")
        #expect(totals["messages", default: 0] > 0)
    }

    /// What one seed played, and the first thing found wrong.
    struct Outcome {
        var counts: [String: Int] = [:]
        var failure: String?
    }

    @MainActor private func play(seed: UInt64, actions: Int) async throws -> Outcome {
        var outcome = Outcome()
        var random = SplitMix64(seed: seed ^ 0x5EED)
        let faults = RandomFaults(seed: seed)
        let server = try await TestServer.start()
        let proxy = try FaultProxy(upstreamPort: server.port)
        let clients = server.folder.appendingPathComponent("clients")
        let ada = try await NetworkChatter("ada", password: server.passwords["ada"] ?? "", server: proxy.url, folder: clients)
        let alan = try await NetworkChatter("alan", password: server.passwords["alan"] ?? "", server: proxy.url, folder: clients)
        defer { proxy.stop() }
        let channel = "ada-alan"
        var texts = ["seed \(seed) start"]
        do {
            try await eventually("both users are connected") { ada.client.isConnected && alan.client.isConnected }
            // A first message, so that each client has a sync point to catch up from.
            ada.send(texts[0], to: channel)
            try await eventually("alan sees the first message") { try await alan.storedTexts(in: channel)[texts[0]] == 1 }
            proxy.setRule { trigger in
                guard case .request = trigger else { return nil }
                return faults.script()
            }
            for step in 1...actions {
                switch Int.random(in: 0..<10, using: &random) {
                case 0:
                    proxy.resetAll()
                    outcome.counts["connections reset", default: 0] += 1
                default:
                    let sender = Bool.random(using: &random) ? ada : alan
                    let text = "seed \(seed) step \(step) from \(sender.userId)"
                    sender.send(text, to: channel)
                    texts.append(text)
                    // As the user sees it: the message shows, pending or already sent.
                    try await eventually("\"\(text)\" shows") {
                        let pending = try await sender.unsentTexts().contains(text)
                        let stored = try await sender.storedTexts(in: channel)[text] != nil
                        return pending || stored
                    }
                }
            }
            proxy.setRule(nil)
            let explain: () async -> String = {
                let adaUnsent = (try? await ada.unsentTexts()) ?? []
                let alanUnsent = (try? await alan.unsentTexts()) ?? []
                return "ada unsent \(adaUnsent), alan unsent \(alanUnsent), "
                    + "ada \(ada.api.currentConnectionState), alan \(alan.api.currentConnectionState)"
            }
            try await eventually("both users reconnect", explain: explain) { ada.client.isConnected && alan.client.isConnected }
            // Requests go over LiveSocialNetwork's own sockets on Linux, each wait bounded by the
            // request timeout (3 s here): a send held longer than that is a failure, reported with
            // the proxy's open connections.
            try await eventually("every pending message is sent", within: .seconds(30), explain: {
                await explain() + "; open at the proxy: \(proxy.openConnections)"
            }) {
                let adaUnsent = try await ada.unsentTexts()
                let alanUnsent = try await alan.unsentTexts()
                return adaUnsent.isEmpty && alanUnsent.isEmpty
            }
            let stored = try await ServerMessages(in: channel, api: ada.api)
            let wrong = texts.filter { stored.byText[$0] != 1 }
                .map { "\"\($0)\" stored \(stored.byText[$0] ?? 0) times" }
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
        for (name, count) in faults.drawn { outcome.counts[name, default: 0] += count }
        await ada.close()
        await alan.close()
        await server.stop()
        return outcome
    }
}
