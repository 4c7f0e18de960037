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

    @Test func pendingMessagesInADamagedCacheAreLostWithItAndTheRecoverySaysSo() async throws {
        let directory = try TemporaryDirectory()
        let (serverURL, cacheURL) = try ClientDamageRun.folders(in: directory)
        let server = try EmbeddedServer(location: .file(serverURL), clock: ManualClock(), epoch: 1_700_000_000, externalChanges: .off)
        _ = try await server.seedDemoData()
        let stamps = Stamps()
        // A message written while offline stays pending in the cache.
        var requestId = ""
        do {
            let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(cacheURL),
                                          now: { stamps.next() })
            client.startRealtime()
            try await ClientDamageRun.loadFresh(client, from: server)
            server.disconnect()
            await #expect(throws: SocialAPIError.offline) { try await client.messages.send("written before the damage", to: "general") }
            let pending = try await client.store.read { connection in
                try Message.read(CacheQuery<Message>([.equals("text", .text("written before the damage"))], orderBy: "createdAt"),
                                 from: connection)
            }
            #expect(pending.map(\.sendingStatus) == [.pending])
            requestId = try #require(pending.first?.clientRequestId)
            client.stopRealtime()
            _ = try await client.store.read { try $0.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int(0) } }
            await client.store.close()
        }
        server.reconnect()
        let before = try ServerFileContents(of: serverURL)
        // The header becomes garbage: the next client moves the file aside, pending message and all.
        var random = SeededRandom(seed: 12)
        _ = try CacheFileDamage.garbageHeader.apply(to: cacheURL, random: &random)
        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(cacheURL),
                                      now: { stamps.next() })
        let recovery = try #require(client.store.recovery)
        #expect(recovery.description.contains("not sent"), "the recovery must say unsent changes stay in the old file: \(recovery)")
        #expect(recovery.description.contains(recovery.movedTo.path))
        #expect(recovery.movedTo.deletingLastPathComponent() == cacheURL.deletingLastPathComponent())
        let lostId = requestId
        let cached = try await client.store.read { try Message.read(id: lostId, from: $0) }
        #expect(cached == nil)
        // Handling the damage did not touch the server.
        let afterRecovery = try ServerFileContents(of: serverURL)
        #expect(afterRecovery == before, "the server changed: \(before.differences(from: afterRecovery))")
        // Online again, the outbox sends what it has, oldest first: the lost message is not among it.
        client.startRealtime()
        try await ClientDamageRun.loadFresh(client, from: server)
        let sent = try await client.messages.send("written after the recovery", to: "general")
        let texts = try await server.records(.messages(channelId: "general", newestFirst: false)).map(\.text)
        #expect(texts.contains(sent.text))
        #expect(!texts.contains("written before the damage"))
        #expect(try await server.records(.messages(channelId: "general", newestFirst: false)).filter { $0.clientRequestId == requestId }.isEmpty)
        client.stopRealtime()
        await client.store.close()
    }
}
