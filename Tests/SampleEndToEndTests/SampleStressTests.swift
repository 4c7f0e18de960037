// Runs the built sample as child processes: macOS and Linux only (iOS and its siblings have no
// `Process`, and no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// Three users' apps send 300 messages each into one channel at once, on one data folder; one
/// app is killed with `SIGKILL` at a random point and started again. Every message that any app
/// showed as pending ends up exactly once on the server and in the cache of every app that ran
/// throughout, in the same order; the restarted app's cache holds all of its own messages, and
/// what it holds of the others' (those it heard or fetched) once each, in the same order.
///
/// The kill point comes from a seed printed with the test: a fixed one, so that every run plays
/// the same script, or `LIVEDATA_STRESS_SEED` to try (or replay) another.
@Suite(.timeLimit(.minutes(3)))
struct SampleStressTests {
    /// How many messages each app sends: 300, or `LIVEDATA_STRESS_MESSAGES`.
    static let perUser = ProcessInfo.processInfo.environment["LIVEDATA_STRESS_MESSAGES"].flatMap { Int($0) }.map { max(2, $0) } ?? 300
    static let users = ["ada", "alan", "grace"]
    /// The app killed and started again.
    static let victim = "grace"

    @Test func threeAppsSendAtOnceAndOneIsKilledAndRestarted() async throws {
        let seed = ProcessInfo.processInfo.environment["LIVEDATA_STRESS_SEED"].flatMap { UInt64($0) }
            ?? 20_261_125
        var random = SeededRandom(seed: seed)
        let killAfter = 1 + random.below(Self.perUser - 1)
        print("SampleStressTests: seed \(seed): \(Self.victim) is killed after reading message \(killAfter) of \(Self.perUser)")

        let folder = try TemporaryDirectory()
        var apps: [String: SampleProcess] = [:]
        for user in Self.users {
            apps[user] = try SampleProcess(data: folder, latency: 0, arguments: ["--user", user])
        }
        for user in Self.users { try await apps[user]!.openChat("general") }

        // Everyone types at once; each ends in #random with a last message, after the outbox's
        // queue (one at a time, in order) has sent everything before it.
        for user in Self.users where user != Self.victim {
            try apps[user]!.send(script(messages: (1...Self.perUser).map { "\(user)-\($0)" }, done: "done-\(user)"))
        }
        let victim = apps[Self.victim]!
        try victim.send(script(messages: (1...Self.perUser).map { "\(Self.victim)-\($0)" }, done: "done-\(Self.victim)"))
        try await victim.waitForLine("the echo of message \(killAfter)") { $0 == "> \(Self.victim)-\(killAfter)" }
        let killedOutput = await victim.kill()
        let killed = await victim.finish()
        #expect(killed.status != 0, "\(Self.victim) was killed")
        let pendingAtKill = SampleProcess.pendingTexts(in: killedOutput, sender: Self.victim)
        let sentAtKill = killedOutput.split(separator: "\n").filter {
            $0.hasPrefix(" ") && $0.contains(" \(Self.victim): \(Self.victim)-") && SampleProcess.isChatLine($0)
        }
        print("SampleStressTests: \(Self.victim) showed \(pendingAtKill.count) messages as pending and \(sentAtKill.count) as sent before the kill")

        let restarted = try SampleProcess(data: folder, latency: 0, arguments: ["--user", Self.victim])
        apps[Self.victim] = restarted
        try await restarted.openChat("general")
        let rest = (1...(Self.perUser - killAfter)).map { "\(Self.victim)-again-\($0)" }
        try restarted.send(script(messages: rest, done: "done-\(Self.victim)-again"))

        let dones = Self.users.map { $0 == Self.victim ? "done-\($0)-again" : "done-\($0)" }
        for user in Self.users {
            let app = apps[user]!
            try await app.waitFor("> /open random")
            for (sender, done) in zip(Self.users, dones) {
                try await app.waitFor(" \(sender): \(done)\n", movingMark: false)
            }
        }
        var outputs = [killedOutput]
        for user in Self.users {
            let result = await apps[user]!.finish()
            #expect(result.status == 0, "\(user)'s app:\n\(result.errors)")
            outputs.append(result.output)
        }

        // Every message shown as pending, by anyone.
        var shown: Set<String> = []
        for (user, output) in zip([Self.victim] + Self.users, outputs) {
            shown.formUnion(SampleProcess.pendingTexts(in: output, sender: user).filter { !$0.hasPrefix("done-") })
        }
        let files = SampleDataFiles(folder: folder)
        let server = try files.serverMessages(in: "general")
        let serverTexts = server.map(\.text).filter { shown.contains($0) }
        #expect(shown.count >= Self.perUser, "the apps showed their messages as pending: \(shown.count)")
        #expect(serverTexts.count == shown.count, "each pending message is on the server once: \(duplicatesAndMissing(serverTexts, shown))")
        for user in Self.users where user != Self.victim {
            let sent = server.filter { $0.userId == user && $0.text.hasPrefix("\(user)-") }.map(\.text)
            #expect(sent == (1...Self.perUser).map { "\(user)-\($0)" }, "all of \(user)'s messages, once each, in order")
        }
        #expect(server.filter { $0.text.hasPrefix("\(Self.victim)-again-") }.map(\.text) == rest)
        for user in Self.users {
            let cached = try files.cachedMessages(of: user, in: "general")
            #expect(cached.filter { $0.syncState != "synced" } == [], "\(user)'s cache has nothing pending")
            let texts = cached.map(\.text).filter { shown.contains($0) }
            // Compared first, so that a failure prints the difference, not both long lists.
            guard user == Self.victim else {
                let same = texts == serverTexts
                #expect(same, "\(user)'s cache has each pending message once, in the server's order: \(duplicatesAndMissing(texts, shown))")
                continue
            }
            // A cache is not a replica: the restarted app missed the events of its downtime and
            // fetched only the newest page of the chat (older pages load with /more). What it
            // holds is there once, in the server's order, and all of its own messages are.
            let held = Set(texts)
            #expect(held.count == texts.count, "\(user)'s cache has each message once: \(duplicatesAndMissing(texts, held))")
            let inOrder = texts == serverTexts.filter { held.contains($0) }
            #expect(inOrder, "\(user)'s cache keeps the server's order")
            let missingOwn = shown.filter { $0.hasPrefix("\(user)-") }.subtracting(held).sorted()
            #expect(missingOwn.isEmpty, "\(user)'s cache has all of its own messages: missing \(missingOwn.count): \(missingOwn.prefix(10))")
        }
    }

    /// The lines an app reads: the messages, then the way to #random and a last message there.
    func script(messages: [String], done: String) -> String {
        (messages + ["/back", "/open random", done]).joined(separator: "\n")
    }

    /// What `texts` has twice and what it lacks of `expected`, in words.
    func duplicatesAndMissing(_ texts: [String], _ expected: Set<String>) -> String {
        var counts: [String: Int] = [:]
        for text in texts { counts[text, default: 0] += 1 }
        let doubled = counts.filter { $0.value > 1 }.keys.sorted()
        let missing = expected.subtracting(texts).sorted()
        return "doubled \(doubled.prefix(10)), missing \(missing.count): \(missing.prefix(10))"
    }
}
#endif
