import Foundation
import LiveSocial
import Synchronization
import Testing

/// The real `livedata-server` killed with `SIGKILL` in the middle of two users' sends and
/// restarted on the same data folder and port. The users are `SocialClient`s with cache files,
/// over `NetworkSocialAPI` through a ``FaultProxy`` that holds each mutation's answer 30 ms, so
/// that kills land between the server's commit and the client's reading of the answer.
///
/// Checked after the last restart: every message shown as pending is stored on the server
/// exactly once; nothing stays pending; both clients reconnect and catch up, each showing every
/// message of the other. `LIVEDATA_KILL_SEED` picks when the kills land (the seed is printed).
@Suite("A server killed mid-send")
struct ServerKillTests {
    @Test @MainActor func aServerKilledAndRestartedMidSendStoresEveryPendingMessageOnceAndClientsCatchUp() async throws {
        let seed = ProcessInfo.processInfo.environment["LIVEDATA_KILL_SEED"].flatMap(UInt64.init) ?? 1
        var random = SplitMix64(seed: seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livedata-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("server")
        var server = try await LaunchedServer.start(port: 0, folder: data)
        let port = server.port
        let proxy = try FaultProxy(upstreamPort: port)
        defer { proxy.stop() }
        let mutations = Mutex(0)
        proxy.setRule { trigger in
            guard case .request(let line, _) = trigger, line.hasPrefix("POST /v1/mutations") else { return nil }
            mutations.withLock { $0 += 1 }
            return FaultScript(toClient: [.delay(milliseconds: 30)])
        }
        let passwords = try LaunchedServer.passwords(in: data)
        let clients = folder.appendingPathComponent("clients")
        let ada = try await NetworkChatter("ada", password: passwords["ada"] ?? "", server: proxy.url, folder: clients)
        let alan = try await NetworkChatter("alan", password: passwords["alan"] ?? "", server: proxy.url, folder: clients)
        let channel = "ada-alan"
        try await eventually("both users are connected") { ada.client.isConnected && alan.client.isConnected }
        // A first message, so that each client has a sync point to catch up from.
        ada.send("before the kills", to: channel)
        try await eventually("alan sees the first message") { try await alan.storedTexts(in: channel)["before the kills"] == 1 }

        var texts: [String] = ["before the kills"]
        var pendingAtKills = 0
        for round in 1...3 {
            let before = mutations.withLock { $0 }
            for index in 1...8 {
                let text = "ada \(round).\(index)"
                ada.send(text, to: channel)
                texts.append(text)
                if index % 3 == 0 {
                    alan.send("alan \(round).\(index)", to: channel)
                    texts.append("alan \(round).\(index)")
                }
            }
            let killAfter = Int.random(in: 1...6, using: &random)
            try await eventually("\(killAfter) sends of round \(round) reach the server") {
                mutations.withLock { $0 } - before >= killAfter
            }
            await server.kill()
            let adaPending = try await ada.unsentTexts().count
            let alanPending = try await alan.unsentTexts().count
            pendingAtKills += adaPending + alanPending
            try await eventually("both clients see the server gone") { !ada.client.isConnected && !alan.client.isConnected }
            // Sent while the server is down: shown pending, sent after the restart.
            ada.send("ada while down \(round)", to: channel)
            texts.append("ada while down \(round)")
            server = try await LaunchedServer.start(port: port, folder: data)
            #expect(server.port == port)
        }

        let wrong = try await NetworkChatter.settle(
            [ada, alan], texts: texts, in: channel, explainMore: { "seed \(seed) (LIVEDATA_KILL_SEED=\(seed))" })
        #expect(wrong == nil, "seed \(seed): \(wrong ?? "")")
        print("ServerKillTests (LIVEDATA_KILL_SEED=\(seed)): 3 kills, \(texts.count) messages, \(pendingAtKills) pending at the kills, \(mutations.withLock { $0 }) mutation requests")
        #expect(pendingAtKills > 0, "the kills landed while messages were pending")
        await ada.close()
        await alan.close()
        server.process.process.terminate()
        _ = await server.process.waitForExit()
    }
}
