import Foundation
import LiveDataPostgres
import LiveRepository
import LiveSocial
import LiveSocialServer
import ServerTestSupport
import Testing

/// PostgreSQL restarts under two instances: the writes after it go through (a write the
/// restart broke fails and is sent again), and the other instance's clients get every message
/// once, its listener having connected again and caught up from the change log.
@Suite("PostgreSQL restarts", .serialized)
struct PostgresRestartTests {
    @Test func instancesReconnectAndResumeWithNothingLostOrDoubled() async throws {
        // A cluster of its own: restarting the shared one would break the suites running beside this one.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livedata-pg-\(UUID().uuidString)").path
        let url = try await Self.cluster("start", folder)
        do {
            try await play(url: url, folder: folder)
        } catch {
            _ = try? await Self.cluster("stop", folder)
            throw error
        }
        _ = try? await Self.cluster("stop", folder)
    }

    private func play(url: String, folder: String) async throws {
        let fixture = try await StoreFixture.make(.postgres, cluster: try PostgresLocation(url: url))
        let (second, secondStore) = try await fixture.secondInstance()
        try await fixture.server.seedDemoData()
        let listener = Task {
            await PostgresChangeListener(server: second, location: fixture.location!, retryDelay: .milliseconds(100)).run()
        }
        _ = try await second.publishExternalChanges()
        let rounds = 3
        let perRound = 20
        let collector = EventCollector(second.connection(userId: "tim").events(), expected: rounds * perRound)
        let writer = fixture.server.connection(userId: "ada")
        for round in 0..<rounds {
            for number in 0..<perRound {
                let mutation = SocialMutation.sendMessage(
                    channelId: "general", clientRequestId: "r\(round)-\(number)", type: .text, text: "\(round) \(number)",
                    parentId: nil, metaArrays: [:])
                // A send the restart broke is sent again: the client request id makes it once.
                var attempts = 0
                while true {
                    attempts += 1
                    do {
                        try await writer.perform(mutation)
                        break
                    } catch let error as SocialAPIError {
                        guard attempts < 100 else { throw error }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
            }
            if round < rounds - 1 { _ = try await Self.cluster("restart", folder) }
        }
        let seen = await collector.finish(within: .seconds(60))
        listener.cancel()
        #expect(seen.messageIds.count == rounds * perRound)
        #expect(Set(seen.messageIds).count == seen.messageIds.count)
        #expect(seen.sequences == seen.sequences.sorted())
        let stored = try await second.records(SocialQuery<Message>.messages(channelId: "general", newestFirst: false))
            .filter { $0.clientRequestId.hasPrefix("r") && $0.userId == "ada" }
        #expect(stored.count == rounds * perRound)
        #expect(stored.map(\.id) == seen.messageIds)
        let closing = secondStore
        try? await secondStore.thread.perform { closing.close() }
        await fixture.close()
    }

    /// Runs `postgres-cluster.sh COMMAND FOLDER` and returns what it printed (the URL, for `start`).
    static func cluster(_ command: String, _ folder: String) async throws -> String {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/postgres-cluster.sh")
        return try await ScriptRun.output(script.path, [command, folder])
    }
}
