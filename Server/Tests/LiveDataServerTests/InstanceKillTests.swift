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
        let mutations = Mutex([0, 0])
        let (ada, alan, proxies) = try await instances.chatters { index in mutations.withLock { $0[index] += 1 } }
        defer { for proxy in proxies { proxy.stop() } }
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

        let wrong = try await NetworkChatter.settle(
            chatters, texts: texts, in: channel,
            explainMore: { "database \((try? await instances.databaseProblems()) ?? [])" },
            problems: { try await instances.databaseProblems() })
        #expect(wrong == nil, "\(wrong ?? "")")
        print("InstanceKillTests: 2 instances killed, \(texts.count) messages, \(pendingAtKills) pending at the kills")
        #expect(pendingAtKills > 0, "the kills landed while messages were pending")
        for chatter in chatters { await chatter.close() }
    }
}
