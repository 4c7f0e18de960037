import Foundation
import LiveSocial
import LiveSocialServer
import SampleApp
import TestSupport
import Testing

/// The other users of the embedded server: random actions on demand, replies and floods.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct OtherUsersTests {
    @Test func theyAreEveryoneButTheSignedInUser() async throws {
        let fixture = try await EnvironmentFixture.make()
        let others = fixture.others
        #expect(others.userId == "ada")
        #expect(others.server === fixture.server)
        #expect(await others.activity.userIds == ["alan", "grace", "linus", "margaret", "tim"])
    }

    @Test func actTakesTheActionsAndDescribesEachOne() async throws {
        let fixture = try await EnvironmentFixture.make()
        let before = try await fixture.server.latestSequence()
        let done = try await fixture.others.act(times: 4)
        #expect(done.count == 4)
        #expect(await fixture.others.activity.actionCount == 4)
        #expect(try await fixture.server.latestSequence() > before)
        let verbs = ["wrote in #", "posted in ", "commented on a post", "reacted ", "took back a reaction",
                     "followed ", "unfollowed ", "updated something"]
        for description in done {
            let actor = String(description.prefix { $0 != " " })
            #expect(["alan", "grace", "linus", "margaret", "tim"].contains(actor), "\(description)")
            #expect(verbs.contains { description.contains($0) }, "\(description)")
        }
    }

    @Test func theSameSeedOnTheSameDataTakesTheSameActions() async throws {
        let first = try await EnvironmentFixture.make()
        let second = try await EnvironmentFixture.make()
        let firstDone = try await first.others.act(times: 6)
        let secondDone = try await second.others.act(times: 6)
        #expect(firstDone == secondDone)
    }

    @Test func actingNoTimesDoesNothing() async throws {
        let fixture = try await EnvironmentFixture.make()
        let before = try await fixture.server.latestSequence()
        #expect(try await fixture.others.act(times: 0) == [])
        #expect(try await fixture.others.act(times: -3) == [])
        #expect(try await fixture.server.latestSequence() == before)
    }

    @Test func aWrittenMessageIsDescribedWithItsChannel() async throws {
        let fixture = try await EnvironmentFixture.make()
        let done = try await fixture.others.act(times: 20)
        let messages = try await fixture.server.records(.messages(channelId: "general", newestFirst: false))
            + fixture.server.records(.messages(channelId: "random", newestFirst: false))
            + fixture.server.records(.messages(channelId: "keynote", newestFirst: false))
            + fixture.server.records(.messages(channelId: "ada-alan", newestFirst: false))
        let simulated = messages.filter { $0.clientRequestId.hasPrefix("sim-") }
        #expect(done.filter { $0.contains(" wrote in #") }.count == simulated.count)
        for message in simulated {
            #expect(done.contains("\(message.userId) wrote in #\(message.channelId)"))
        }
    }

    @Test func replyPicksTheFirstOtherMemberAndCyclesThroughStockReplies() async throws {
        let fixture = try await EnvironmentFixture.make()
        let others = fixture.others
        #expect(try await others.reply(in: "random") == "alan")
        #expect(try await others.reply(nil, in: "random") == "alan")
        let newest = try await fixture.serverMessages("random").suffix(2)
        #expect(newest.map(\.userId) == ["alan", "alan"])
        #expect(newest.map(\.text) == ["Sounds good to me!", "Ha, I was just thinking the same."])

        try await fixture.server.createChannel(id: "trio", displayName: "Trio", type: .community,
                                               memberIds: ["ada", "tim", "grace"])
        #expect(try await others.reply("custom words", in: "trio") == "grace")
        let trio = try await fixture.serverMessages("trio")
        #expect(trio.map(\.text) == ["custom words"])
        #expect(trio.map(\.userId) == ["grace"])
        #expect(try await fixture.serverChannel("trio").lastMessageText == "custom words")
    }

    @Test func replyInAChannelWithNobodyElseThrows() async throws {
        let fixture = try await EnvironmentFixture.make()
        try await fixture.server.createChannel(id: "solo", displayName: "Solo", type: .community, memberIds: ["ada"])
        await #expect(throws: SocialAPIError.invalidRequest("nobody else is a member of solo")) {
            try await fixture.others.reply(in: "solo")
        }
        #expect(try await fixture.serverMessages("solo").isEmpty)
    }

    @Test func floodWritesCountMessagesRoundRobinAmongTheOtherMembers() async throws {
        let fixture = try await EnvironmentFixture.make()
        let before = try await fixture.serverChannel("random").messageCount
        try await fixture.others.flood(5, in: "random")
        let flood = try await fixture.serverMessages("random").suffix(5)
        #expect(flood.map(\.userId) == ["alan", "grace", "linus", "alan", "grace"])
        #expect(flood.map(\.text) == (1...5).map { "Message \($0) of 5 while you were away" })
        #expect(try await fixture.serverChannel("random").messageCount == before + 5)

        try await fixture.others.flood(0, in: "random")
        #expect(try await fixture.serverChannel("random").messageCount == before + 5)
    }

    @Test func floodInAChannelWithNobodyElseThrowsAndWritesNothing() async throws {
        let fixture = try await EnvironmentFixture.make()
        try await fixture.server.createChannel(id: "solo", displayName: "Solo", type: .community, memberIds: ["ada"])
        await #expect(throws: SocialAPIError.self) {
            try await fixture.others.flood(3, in: "solo")
        }
        #expect(try await fixture.serverMessages("solo").isEmpty)
    }

    @Test func theBackgroundActivityNeverActsAsASignedInUser() async throws {
        let fixture = try await EnvironmentFixture.make(userId: "alan")
        let others = fixture.others
        #expect(await others.activity.userIds == ["ada", "grace", "linus", "margaret", "tim"], "never as alan")
        var actors: Set<String> = []
        for seed in 0..<40 as Range<UInt64> {
            let done = try #require(try await others.actInBackground(signedIn: ["alan", "linus", "tim"], seed: seed))
            actors.insert(String(done.prefix { $0 != " " }))
        }
        #expect(actors == ["ada", "grace", "margaret"])
    }

    @Test func onlyTheAppOfTheFirstSignedInUserActsInTheBackground() async throws {
        let fixture = try await EnvironmentFixture.make(userId: "alan")
        let before = try await fixture.server.latestSequence()
        #expect(try await fixture.others.actInBackground(signedIn: ["ada", "alan"], seed: 1) == nil, "ada's app acts")
        #expect(try await fixture.server.latestSequence() == before)
        #expect(try await fixture.others.actInBackground(signedIn: ["alan", "grace"], seed: 1) != nil)
        #expect(try await fixture.others.actInBackground(signedIn: [], seed: 2) != nil, "alone")
    }

    @Test func nobodyActsWhenEveryoneIsSignedIn() async throws {
        let fixture = try await EnvironmentFixture.make()
        let before = try await fixture.server.latestSequence()
        let everyone = Set(["ada", "alan", "grace", "linus", "margaret", "tim"])
        #expect(try await fixture.others.actInBackground(signedIn: everyone, seed: 1) == nil)
        #expect(try await fixture.server.latestSequence() == before)
    }

    @Test func theBackgroundActivityActsEveryIntervalOfTheServersClock() async throws {
        let fixture = try await EnvironmentFixture.make()
        let before = try await fixture.server.latestSequence()
        fixture.environment.start(backgroundActivity: true)
        defer { fixture.environment.shutdown() }
        await fixture.clock.waitForSleepers(1)
        #expect(try await fixture.server.latestSequence() == before, "nothing before the interval")
        fixture.clock.advance(by: .seconds(4))
        while try await fixture.server.latestSequence() == before {
            try Task.checkCancellation()
            await Task.yield()
        }
        #expect(try await fixture.server.latestSequence() > before)
    }
}
