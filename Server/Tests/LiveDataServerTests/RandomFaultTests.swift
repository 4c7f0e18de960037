import Foundation
import LiveSocial
import ServerTestSupport
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
        let summary = await runs.playSeeds { seed in try await play(seed: seed, actions: runs.isLong ? 40 : 16) }
        for failure in summary.failures { Issue.record(Comment(rawValue: failure)) }
        guard summary.failures.isEmpty, runs.replaySeed == nil else { return }
        #expect(summary.totals["cut before the answer", default: 0] > 0, "answers were lost")
        #expect(summary.totals["messages", default: 0] > 0)
    }

    @MainActor private func play(seed: UInt64, actions: Int) async throws -> FaultRuns.Outcome {
        var outcome = FaultRuns.Outcome()
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
                    texts.append(text)
                    try await sender.sendShowing(text, to: channel)
                }
            }
            proxy.setRule(nil)
            // Requests go over LiveSocialNetwork's own sockets on Linux, each wait bounded by the
            // request timeout (3 s here): a send held longer than that is a failure, reported with
            // the proxy's open connections.
            outcome.failure = try await NetworkChatter.settle(
                [ada, alan], texts: texts, in: channel, pendingLimit: .seconds(30),
                explainMore: { "open at the proxy: \(proxy.openConnections)" })
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
