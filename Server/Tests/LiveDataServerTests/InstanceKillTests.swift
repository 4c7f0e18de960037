import Foundation
import LiveSocial
import Synchronization
import Testing

/// Two `livedata-server` instances on one PostgreSQL database (``PostgresInstances``), each
/// killed with `SIGKILL` in the middle of two users' sends (issue 23, item 4). Each user
/// reaches the instances through a ``FaultProxy`` that fails over, as the README's nginx does:
/// ada tries the first instance, then the second; alan the other way round. Answers to
/// mutations are held 30 ms, so that kills land between the database's commit and the client's
/// reading of the answer.
///
/// Checked: while its instance is down, a user reconnects to the other one and chats; after
/// both kills and restarts every message shown pending is stored exactly once, nothing stays
/// pending, both users show every message once, and the database holds no half-done write
/// (the change log is gapless; every message has its logged creation and the other way round).
@Suite("Instances on PostgreSQL killed mid-send", .serialized)
struct InstanceKillTests {
    @Test @MainActor func anInstanceKilledMidSendLosesNothingAndItsClientsCatchUpOnTheOther() async throws {
        try await PostgresInstances.with { instances in try await play(instances) }
    }

    @MainActor private func play(_ instances: PostgresInstances) async throws {
        let passwords = try instances.passwords()
        let mutations = Mutex([0, 0])
        let proxies = try [0, 1].map { index in
            let proxy = try FaultProxy(upstreamPorts: index == 0 ? instances.ports : instances.ports.reversed())
            proxy.setRule { trigger in
                guard case .request(let line, _) = trigger, line.hasPrefix("POST /v1/mutations") else { return nil }
                mutations.withLock { $0[index] += 1 }
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
        let chatters = [ada, alan]
        let channel = "ada-alan"
        var texts = ["before the kills"]
        try await eventually("both users are connected") { ada.client.isConnected && alan.client.isConnected }
        ada.send(texts[0], to: channel)
        try await eventually("alan sees the first message") { try await alan.storedTexts(in: channel)[texts[0]] == 1 }

        var pendingAtKills = 0
        for victim in [0, 1] {
            // The victim instance is the one the victim user reached first; the other user is on the other.
            let user = chatters[victim]
            let other = chatters[1 - victim]
            let before = mutations.withLock { $0[victim] }
            for index in 1...8 {
                texts.append("\(user.userId) \(victim).\(index)")
                user.send(texts.last!, to: channel)
                if index % 3 == 0 {
                    texts.append("\(other.userId) \(victim).\(index)")
                    other.send(texts.last!, to: channel)
                }
            }
            try await eventually("3 of \(user.userId)'s sends reach instance \(victim)") {
                mutations.withLock { $0[victim] } - before >= 3
            }
            await instances.kill(victim)
            pendingAtKills += try await user.unsentTexts().count
            // Through the proxy's failover, on the other instance: it chats while its own is down.
            let whileDown = "\(user.userId) while instance \(victim) is down"
            texts.append(whileDown)
            user.send(whileDown, to: channel)
            try await eventually("\(other.userId) sees \"\(whileDown)\" while instance \(victim) is down") {
                try await other.storedTexts(in: channel)[whileDown] == 1
            }
            try await instances.restart(victim)
        }

        let explain: () async -> String = {
            let adaUnsent = (try? await ada.unsentTexts()) ?? []
            let alanUnsent = (try? await alan.unsentTexts()) ?? []
            let problems = (try? await instances.databaseProblems()) ?? []
            return "ada unsent \(adaUnsent), alan unsent \(alanUnsent), database \(problems)"
        }
        try await eventually("both users are connected", explain: explain) { ada.client.isConnected && alan.client.isConnected }
        try await eventually("every pending message is sent", explain: explain) {
            let adaUnsent = try await ada.unsentTexts()
            let alanUnsent = try await alan.unsentTexts()
            return adaUnsent.isEmpty && alanUnsent.isEmpty
        }
        let stored = try await ServerMessages(in: channel, api: alan.api)
        for text in texts {
            #expect(stored.byText[text] == 1, "\"\(text)\" is stored \(stored.byText[text] ?? 0) times")
        }
        for chatter in chatters {
            try await eventually("\(chatter.userId) shows every message once", explain: {
                let shown = (try? await chatter.storedTexts(in: channel)) ?? [:]
                return "\(chatter.userId) misses \(texts.filter { shown[$0] != 1 })"
            }) {
                let shown = try await chatter.storedTexts(in: channel)
                return texts.allSatisfy { shown[$0] == 1 }
            }
        }
        #expect(try await instances.databaseProblems() == [])
        print("InstanceKillTests: 2 instances killed, \(texts.count) messages, \(pendingAtKills) pending at the kills")
        #expect(pendingAtKills > 0, "the kills landed while messages were pending")
        for chatter in chatters { await chatter.close() }
    }
}
