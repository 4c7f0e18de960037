import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import SampleApp
import TestSupport
import Testing

/// Opening the app's environment in a data folder: one server file for every user, a cache and
/// read markers per user, an older version's cache moved, and the other users left alone while
/// someone else is signed in.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct SampleEnvironmentTests {
    func configuration(_ folder: TemporaryDirectory, _ userId: String) -> SampleConfiguration {
        SampleConfiguration(dataFolder: folder.url, userId: userId, latency: .zero, activityInterval: nil)
    }

    func close(_ environment: SampleEnvironment) async {
        environment.shutdown()
        await environment.client.store.close()
    }

    @Test func twoUsersShareTheServerFileAndHaveACacheEach() async throws {
        let folder = try TemporaryDirectory()
        let ada = try await SampleEnvironment.open(configuration(folder, "ada"))
        #expect(ada.launchNotice == nil, "a first run has nothing to tell")
        #expect(ada.session?.userId == "ada")
        let adaServer = try #require(ada.server)
        let before = try await adaServer.latestSequence()

        let alan = try await SampleEnvironment.open(configuration(folder, "alan"))
        #expect(alan.userId == "alan")
        #expect(alan.launchNotice == "also signed in on this data folder: ada")
        let alanServer = try #require(alan.server)
        #expect(try await alanServer.latestSequence() == before, "nobody was away: the other users did nothing")
        #expect(SampleSession.signedInUsers(in: folder.url) == ["ada", "alan"])
        #expect(folder.contents.filter { $0.hasPrefix("cache") || $0.hasPrefix("read-markers") } == [])
        for user in ["ada", "alan"] {
            #expect(FileManager.default.fileExists(atPath: folder.file("users/\(user)/cache.sqlite").path))
        }
        let seenByAlan = try await alanServer.ids(of: .user)
        #expect(seenByAlan == EmbeddedServer.demoUserIds, "seeded once")

        await close(alan)
        #expect(SampleSession.signedInUsers(in: folder.url) == ["ada"], "shutting down ends the session")
        await close(ada)

        let again = try await SampleEnvironment.open(configuration(folder, "alan"))
        #expect(again.launchNotice == "while you were away: 5 things happened", "alone again: the others acted")
        await close(again)
    }

    @Test func replyAndFloodNeverSpeakAsAUserWhoIsSignedIn() async throws {
        let folder = try TemporaryDirectory()
        let ada = try await SampleEnvironment.open(configuration(folder, "ada"))
        let alan = try await SampleEnvironment.open(configuration(folder, "alan"))
        let others = try #require(ada.others)
        let server = try #require(ada.server)
        let error = await #expect(throws: SocialAPIError.self) { try await others.reply(in: "ada-alan") }
        #expect(error == .invalidRequest("the other members of ada-alan are signed in on this data folder and speak for themselves"))
        for _ in 0..<6 { #expect(try await others.reply(in: "general") != "alan") }
        let before = try await server.latestSequence()
        try await others.flood(10, in: "general")
        let flooded = try await server.records(.messages(channelId: "general", newestFirst: true)).prefix(10)
        #expect(flooded.count == 10 && !flooded.contains { $0.userId == "alan" || $0.userId == "ada" })
        #expect(try await server.latestSequence() > before)

        await close(alan)
        #expect(try await others.reply(in: "ada-alan") == "alan", "alan quit: his part is simulated again")
        await close(ada)
    }

    @Test func anOlderVersionsCacheGoesToTheUserWhoseUnsentMessageItHolds() async throws {
        let folder = try TemporaryDirectory()
        try await LegacyCache.write(in: folder.url, messages: [
            LegacyCache.message("m1", by: "grace"), LegacyCache.message("unsent-1", by: "alan", .syncing),
        ])
        let ada = try await SampleEnvironment.open(configuration(folder, "ada"))
        #expect(ada.launchNotice == "moved the older version's cache, with alan's 1 unsent change, to users/alan/")
        await close(ada)

        let alan = try await SampleEnvironment.open(configuration(folder, "alan"))
        #expect(alan.launchNotice == "while you were away: 5 things happened", "the migration is told once")
        let unsent = try await alan.client.store.read { database in
            try database.query("SELECT id FROM messages WHERE syncState <> 'synced' AND userId = 'alan'") { $0.string(0) }
        }
        #expect(unsent == ["unsent-1"], "alan's unsent words are in alan's cache")
        #expect(alan.readMarkers.readCount(of: "general") == 3, "and so are the read markers")
        await close(alan)
    }

    @Test func anUnknownUserIsRefusedBeforeAnythingOfTheirsIsMade() async throws {
        let folder = try TemporaryDirectory()
        let error = await #expect(throws: SampleError.self) {
            try await SampleEnvironment.open(configuration(folder, "nobody"))
        }
        #expect(error == .unknownUser("nobody", known: ["ada", "alan", "grace", "linus", "margaret", "tim"]))
        #expect(!FileManager.default.fileExists(atPath: folder.file("users/nobody").path))
    }
}
