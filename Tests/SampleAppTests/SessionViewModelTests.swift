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
        #expect(session.notice.data == nil)
        #expect(session.userId == "ada")
    }

    @Test func theReadMarkersProblemsReachTheNotice() async throws {
        let folder = try TemporaryDirectory()
        let markers = folder.file("read-markers.json")
        try Data("not json".utf8).write(to: markers)
        let fixture = try await EnvironmentFixture.make(readMarkersURL: markers)
        let session = SessionViewModel(environment: fixture.environment)
        #expect(session.notice.data?.contains("read markers were unreadable") == true)

        let notices = session.notice.record()
        try FileManager.default.removeItem(at: folder.url)
        fixture.readMarkers.markRead("general", messageCount: 3)
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
        let notices = session.notice.record()

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
        let expected = try await twin.environment.others.act(times: 1)
        let session = SessionViewModel(environment: fixture.environment)
        await session.othersAct()
        #expect(session.notice.data == expected.first)
        #expect(expected.count == 1)
    }

    @Test func othersActingSeveralTimesCountsTheActions() async throws {
        let fixture = try await EnvironmentFixture.make()
        let session = SessionViewModel(environment: fixture.environment)
        await session.othersAct(times: 3)
        #expect(session.notice.data == "others took 3 actions")
        #expect(await fixture.environment.others.activity.actionCount == 3)
    }

    @Test func othersThatCannotActSaySo() async throws {
        let fixture = try await EnvironmentFixture.make()
        for vowel in ["a", "e", "i", "o", "u"] {
            fixture.server.rejectMessages(containing: vowel, reason: "quiet please")
        }
        let session = SessionViewModel(environment: fixture.environment)
        await session.othersAct(times: 20)
        #expect(session.notice.data == "others could not act: rejected by the server: quiet please")
    }

    @Test func aReplyNamesWhoReplied() async throws {
        let fixture = try await EnvironmentFixture.make()
        let session = SessionViewModel(environment: fixture.environment)
        await session.reply("right back at you", in: "general")
        #expect(session.notice.data == "alan replied in #general")
        let newest = try #require(try await fixture.serverMessages("general").last)
        #expect(newest.text == "right back at you")
        #expect(newest.userId == "alan")
    }

    @Test func aReplyWhereNobodyElseIsAMemberIsAnErrorNotice() async throws {
        let fixture = try await EnvironmentFixture.make()
        try await fixture.server.createChannel(id: "solo", displayName: "Solo", type: .community, memberIds: ["ada"])
        let session = SessionViewModel(environment: fixture.environment)
        await session.reply(nil, in: "solo")
        #expect(session.notice.data == "nobody could reply: invalid request: nobody else is a member of solo")
    }

    @Test func aFloodCountsItsMessages() async throws {
        let fixture = try await EnvironmentFixture.make()
        let before = try await fixture.serverChannel("ada-alan").messageCount
        let session = SessionViewModel(environment: fixture.environment)
        await session.flood(4, in: "ada-alan")
        #expect(session.notice.data == "others sent 4 messages in #ada-alan")
        #expect(try await fixture.serverChannel("ada-alan").messageCount == before + 4)
    }

    @Test func aFloodThatCannotBeSentIsAnErrorNotice() async throws {
        let fixture = try await EnvironmentFixture.make()
        try await fixture.server.createChannel(id: "solo", displayName: "Solo", type: .community, memberIds: ["ada"])
        let session = SessionViewModel(environment: fixture.environment)
        await session.flood(3, in: "solo")
        #expect(session.notice.data == "the flood stopped: invalid request: nobody else is a member of solo")
    }

    @Test func theNoticeStartsWithTheLaunchNoticeOfALaterRun() async throws {
        let folder = try TemporaryDirectory()
        let configuration = SampleConfiguration(
            dataFolder: folder.url.appendingPathComponent("data"), latency: .zero, activityInterval: nil)
        let first = try await SampleEnvironment.open(configuration)
        #expect(first.launchNotice == nil, "a first run has nothing to tell")
        #expect(SessionViewModel(environment: first).notice.data == nil)
        first.shutdown()
        await first.client.store.close()

        let second = try await SampleEnvironment.open(configuration)
        defer { second.shutdown() }
        #expect(second.launchNotice == "while you were away: 5 things happened")
        #expect(SessionViewModel(environment: second).notice.data == "while you were away: 5 things happened")
    }
}
