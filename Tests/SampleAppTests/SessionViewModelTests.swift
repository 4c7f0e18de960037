import Foundation
import LiveSocial
import LiveSocialServer
import SampleApp
import TestSupport
import Testing

/// The app-wide status: online or not, and what the other users just did.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct SessionViewModelTests {
    @Test func itStartsOnlineWithNoNotice() async throws {
        let fixture = try await EnvironmentFixture.make()
        let session = SessionViewModel(environment: fixture.environment)
        #expect(session.isOnline.data == true)
        #expect(session.notices.record().values.isEmpty)
        #expect(session.userId == "ada")
    }

    @Test func theReadMarkersProblemsReachTheNotice() async throws {
        let folder = try TemporaryDirectory()
        let markers = folder.file("read-markers.json")
        try Data("not json".utf8).write(to: markers)
        let fixture = try await EnvironmentFixture.make(readMarkersURL: markers)
        let session = SessionViewModel(environment: fixture.environment)
        let notices = session.notices.record()
        #expect(notices.count == 1, "kept until someone observes")
        #expect(notices.latest?.contains("read markers were unreadable") == true)

        try FileManager.default.removeItem(at: folder.url)
        fixture.readMarkers.markRead("general", messageCount: 3)
        #expect(notices.count == 2)
        #expect(notices.latest?.hasPrefix("could not save read markers") == true)
    }

    @Test func itStartsOfflineWhenTheServerIsDisconnected() async throws {
        let fixture = try await EnvironmentFixture.make()
        fixture.server.disconnect()
        let session = SessionViewModel(environment: fixture.environment)
        #expect(session.isOnline.data == false)
    }

    @Test func goingOfflineAndBackFlipsTheStateTheServerAndTheNotice() async throws {
        let fixture = try await EnvironmentFixture.make()
        let session = SessionViewModel(environment: fixture.environment)
        let online = session.isOnline.record()
        let notices = session.notices.record()

        session.goOffline()
        #expect(online.values == [true, false])
        #expect(!fixture.server.isConnected)
        #expect(notices.latest == "offline: others keep writing; their changes wait in the server's change log")
        session.goOffline()
        #expect(online.values == [true, false], "going offline twice changes nothing")
        #expect(notices.count == 1)

        session.goOnline()
        #expect(online.values == [true, false, true])
        #expect(fixture.server.isConnected)
        #expect(notices.latest == "online: catching up with the change log")
        session.goOnline()
        #expect(online.values == [true, false, true])
        #expect(notices.count == 2)
        try await fixture.waitForConnection(true)
    }

    @Test func othersActingOnceTellsWhatTheyDid() async throws {
        let fixture = try await EnvironmentFixture.make()
        let twin = try await EnvironmentFixture.make()
        let expected = try await twin.others.act(times: 1)
        let session = SessionViewModel(environment: fixture.environment)
        let notices = session.notices.record()
        await session.othersAct().value
        #expect(notices.values == [expected.first])
        #expect(expected.count == 1)
    }

    @Test func othersActingSeveralTimesCountsTheActions() async throws {
        let fixture = try await EnvironmentFixture.make()
        let session = SessionViewModel(environment: fixture.environment)
        let notices = session.notices.record()
        await session.othersAct(times: 3).value
        #expect(notices.values == ["others took 3 actions"])
        #expect(await fixture.others.activity.actionCount == 3)
    }

    @Test func othersThatCannotActSaySo() async throws {
        let fixture = try await EnvironmentFixture.make()
        for vowel in ["a", "e", "i", "o", "u"] {
            fixture.server.rejectMessages(containing: vowel, reason: "quiet please")
        }
        let session = SessionViewModel(environment: fixture.environment)
        let notices = session.notices.record()
        await session.othersAct(times: 20).value
        #expect(notices.values == ["others could not act: rejected by the server: quiet please"])
    }

    @Test func aReplyNamesWhoReplied() async throws {
        let fixture = try await EnvironmentFixture.make()
        let session = SessionViewModel(environment: fixture.environment)
        let notices = session.notices.record()
        await session.reply("right back at you", in: "general").value
        #expect(notices.values == ["alan replied in #general"])
        let newest = try #require(try await fixture.serverMessages("general").last)
        #expect(newest.text == "right back at you")
        #expect(newest.userId == "alan")
    }

    @Test func aReplyWhereNobodyElseIsAMemberIsAnErrorNotice() async throws {
        let fixture = try await EnvironmentFixture.make()
        try await fixture.server.createChannel(id: "solo", displayName: "Solo", type: .community, memberIds: ["ada"])
        let session = SessionViewModel(environment: fixture.environment)
        let notices = session.notices.record()
        await session.reply(nil, in: "solo").value
        #expect(notices.values == ["nobody could reply: invalid request: nobody else is a member of solo"])
    }

    @Test func aFloodCountsItsMessages() async throws {
        let fixture = try await EnvironmentFixture.make()
        let before = try await fixture.serverChannel("ada-alan").messageCount
        let session = SessionViewModel(environment: fixture.environment)
        let notices = session.notices.record()
        await session.flood(4, in: "ada-alan").value
        #expect(notices.values == ["others sent 4 messages in #ada-alan"])
        #expect(try await fixture.serverChannel("ada-alan").messageCount == before + 4)
    }

    @Test func aFloodThatCannotBeSentIsAnErrorNotice() async throws {
        let fixture = try await EnvironmentFixture.make()
        try await fixture.server.createChannel(id: "solo", displayName: "Solo", type: .community, memberIds: ["ada"])
        let session = SessionViewModel(environment: fixture.environment)
        let notices = session.notices.record()
        await session.flood(3, in: "solo").value
        #expect(notices.values == ["the flood stopped: invalid request: nobody else is a member of solo"])
    }

    @Test func theFirstNoticeIsTheLaunchNoticeOfALaterRun() async throws {
        let folder = try TemporaryDirectory()
        let configuration = SampleConfiguration(
            dataFolder: folder.url.appendingPathComponent("data"), latency: .zero, activityInterval: nil)
        let first = try await SampleEnvironment.open(configuration)
        #expect(first.launchNotice == nil, "a first run has nothing to tell")
        #expect(SessionViewModel(environment: first).notices.record().values.isEmpty)
        first.shutdown()
        await first.client.store.close()

        let second = try await SampleEnvironment.open(configuration)
        defer { second.shutdown() }
        #expect(second.launchNotice == "while you were away: 5 things happened")
        let session = SessionViewModel(environment: second)
        let notices = session.notices.record()
        #expect(notices.values == ["while you were away: 5 things happened"])
        #expect(session.notices.record().values.isEmpty, "told once, to the first observer")
    }
}
