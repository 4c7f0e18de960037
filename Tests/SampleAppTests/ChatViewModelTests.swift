import Foundation
import LiveData
import LiveSocial
import LiveSocialServer
import SampleApp
import TestSupport
import Testing

/// A channel's chat: cached then fresh messages, paging back, sending (pending, sent, failed,
/// resent, discarded, offline), live replies, catching up and the huge-gap reload.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ChatViewModelTests {
    /// A chat view model with its messages, status and notices recorded.
    struct Chat {
        let model: ChatViewModel
        let messages: Recording<[MessageRow]>
        let status: Recording<ScreenStatus>
        let notices: EventRecording<String>
    }

    private func openChat(
        _ fixture: EnvironmentFixture, _ channelId: String = "general", hugeGapThreshold: Int = 300, start: Bool = true
    ) async -> Chat {
        let model = ChatViewModel(channelId: channelId, environment: fixture.environment, hugeGapThreshold: hugeGapThreshold)
        let chat = Chat(
            model: model, messages: model.messages.record(), status: model.status.record(), notices: model.notices.record())
        if start { await model.start().value }
        return chat
    }

    /// The rows the server's messages make, as the signed-in user `ada` sees them.
    private func rows(_ messages: some Sequence<Message>) -> [MessageRow] {
        messages.map {
            MessageRow(id: $0.id, sender: $0.userId, text: $0.text, time: $0.createdAt, state: .sent, isMine: $0.userId == "ada")
        }
    }

    // MARK: Starting and paging

    @Test func aFirstStartShowsTheNewestMessagesOldestFirstFreshFromTheServer() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture, start: false)
        let title = chat.model.title.record()
        #expect(chat.model.channelId == "general")
        #expect(title.latest == "general", "the id stands in for the name until the channel is known")
        #expect(chat.messages.values == [[]])

        let hasPrevious = chat.model.hasPrevious.record()
        await chat.model.start().value
        let all = try await fixture.serverMessages("general")
        #expect(all.count > 20)
        #expect(chat.messages.latest == rows(all.suffix(20)))
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.createdAt <= $1.createdAt })
        #expect(chat.messages.latest?.contains { $0.isMine } == true)
        #expect(title.latest == "General")
        #expect(hasPrevious.latest == true)
        #expect(chat.status.values.compactMap { $0?.source } == [ScreenStatus.Source.nothing, .nothing, .fresh],
                "an empty cache has nothing local to show")
        #expect(chat.status.latest == ScreenStatus(isLoading: false, source: .fresh))
    }

    @Test func aLaterStartShowsTheCachedMessagesThenTheServers() async throws {
        let fixture = try await EnvironmentFixture.make()
        let warm = ChatViewModel(channelId: "general", environment: fixture.environment)
        await warm.start().value
        warm.close()
        let cached = try await fixture.serverMessages("general")
        // A message the cache does not hear about.
        fixture.client.stopRealtime()
        try await fixture.say("written while the chat was closed", in: "general", as: "grace")
        fixture.client.startRealtime()

        let chat = await openChat(fixture, start: false)
        fixture.server.setLatency(.seconds(1))
        let starting = chat.model.start()
        let local = try await chat.status.next { $0.source == .local }
        #expect(local.isLoading)
        #expect(local.error == nil)
        #expect(chat.messages.latest == rows(cached.suffix(20)), "the cached messages show at once")

        await fixture.clock.waitForSleepers(1)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        await starting.value
        let fresh = try await fixture.serverMessages("general")
        #expect(chat.messages.latest == rows(fresh.suffix(20)))
        #expect(chat.messages.latest?.last?.text == "written while the chat was closed")
        #expect(chat.status.values.compactMap { $0?.source } == [ScreenStatus.Source.nothing, .nothing, .local, .fresh])
        #expect(chat.status.latest == ScreenStatus(isLoading: false, source: .fresh))
    }

    @Test func aStartThatFailsShowsTheError() async throws {
        let fixture = try await EnvironmentFixture.make()
        fixture.server.failRequests([.latestSequence], message: "no sequence today")
        let chat = await openChat(fixture)
        #expect(chat.status.latest == ScreenStatus(
            isLoading: false, source: .nothing, error: "server failure: no sequence today"))
        #expect(chat.messages.latest == [])
    }

    @Test func loadPreviousPagesBackUntilTheFirstMessage() async throws {
        let fixture = try await EnvironmentFixture.make()
        try await fixture.others.flood(50, in: "random")
        let all = try await fixture.serverMessages("random")
        #expect(all.count > 60)
        let chat = await openChat(fixture, "random")
        let hasPrevious = chat.model.hasPrevious.record()
        #expect(hasPrevious.latest == true)
        #expect(chat.messages.latest == rows(all.suffix(20)))

        var pages = 0
        while chat.model.hasPrevious.data == true, pages < 10 {
            await chat.model.loadPrevious().value
            pages += 1
            #expect(chat.messages.latest == rows(all.suffix(20 * (pages + 1))))
            #expect(chat.status.latest?.isLoading == false)
            #expect(chat.status.latest?.error == nil)
        }
        #expect(pages == (all.count - 20 + 19) / 20)
        #expect(chat.messages.latest == rows(all))
        #expect(hasPrevious.latest == false)
        #expect(hasPrevious.values == [true, false])

        let requests = fixture.server.requestCount
        await chat.model.loadPrevious().value
        #expect(fixture.server.requestCount == requests, "nothing older to load")
    }

    @Test func aPageThatFailsShowsTheError() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        let hasPrevious = chat.model.hasPrevious.record()
        let all = try await fixture.serverMessages("general")
        fixture.server.failRequests([.fetchPage], message: "pages are down")
        // The start cached one message more than it shows (its peek): a failing page shows it, with no error.
        await chat.model.loadPrevious().value
        #expect(chat.messages.latest == rows(all.suffix(21)))
        #expect(chat.status.latest?.error == nil)
        #expect(hasPrevious.latest == true)
        // Nothing older is cached: now the failure shows.
        await chat.model.loadPrevious().value
        #expect(chat.status.latest == ScreenStatus(isLoading: false, source: .fresh, error: "server failure: pages are down"))
        #expect(chat.messages.latest == rows(all.suffix(21)))
        #expect(hasPrevious.latest == true)

        fixture.server.resetFailures()
        await chat.model.loadPrevious().value
        #expect(chat.status.latest == ScreenStatus(isLoading: false, source: .fresh))
        #expect(chat.messages.latest == rows(all))
        #expect(hasPrevious.latest == false)
    }

    // MARK: Sending

    @Test func aSentMessageShowsPendingThenSent() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        let before = try #require(chat.messages.latest)
        fixture.server.setLatency(.seconds(1))
        let sending = chat.model.send("  hello world  ")

        let pending = try #require(try await chat.messages.next { $0.last?.text == "hello world" }.last)
        #expect(pending.state == .pending)
        #expect(pending.isMine)
        #expect(pending.sender == "ada")
        #expect(chat.messages.latest?.dropLast() == before[...], "the pending message comes after the server's")

        await fixture.clock.waitForSleepers(1)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        await sending.value
        let stored = try #require(try await fixture.serverMessages("general").last)
        #expect(stored.text == "hello world")
        let shown = try await chat.messages.value { $0.last?.state == .sent && $0.last?.text == "hello world" }
        #expect(shown.last == rows([stored]).first)
        #expect(shown.filter { $0.text == "hello world" }.count == 1, "never shown twice")
        #expect(chat.status.latest?.error == nil)
    }

    @Test func sendReturnsAtOnceAndMessagesReachTheServerInTheOrderTyped() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        let texts = ["first", "second", "third"]
        fixture.server.setLatency(.seconds(1))
        let sends = texts.map { chat.model.send($0) }

        // All three are pending before the server has answered anything.
        let pending = try await chat.messages.value { rows in
            texts.allSatisfy { text in rows.contains { $0.text == text && $0.state == .pending } }
        }
        #expect(pending.suffix(3).map(\.text) == texts, "shown in the order typed")
        await fixture.clock.waitForSleepers(1)
        #expect(try await fixture.serverMessages("general").contains { texts.contains($0.text) } == false)

        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        for send in sends { await send.value }
        let stored = try await fixture.serverMessages("general").map(\.text).filter { texts.contains($0) }
        #expect(stored == texts, "one after the other, in the order typed")
        let sent = try await chat.messages.value { rows in rows.suffix(3).allSatisfy { $0.state == .sent } }
        #expect(sent.suffix(3).map(\.text) == texts)
    }

    @Test func aSendIsStoredLongBeforeTheServerAnswers() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        #expect(chat.model.areSendsStored, "nothing sent yet")
        fixture.server.setLatency(.seconds(1))
        let sending = chat.model.send("stored first")
        #expect(!chat.model.areSendsStored, "handed to the outbox, not yet on disk")
        try await chat.messages.value { $0.last?.text == "stored first" && $0.last?.state == .pending }
        #expect(chat.model.areSendsStored, "pending in the cache while the server holds the request")
        let cached = try await fixture.client.store.read { connection in
            try Message.read(SocialQuery<Message>.messages(channelId: "general", newestFirst: false).cacheQuery, from: connection)
        }
        #expect(cached.last?.text == "stored first")
        #expect(cached.last?.sendingStatus == .pending)

        await fixture.clock.waitForSleepers(1)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        await sending.value
        #expect(chat.model.areSendsStored)
    }

    @Test func leavingTheChatDoesNotStopASend() async throws {
        let fixture = try await EnvironmentFixture.make()
        var model: ChatViewModel? = ChatViewModel(channelId: "general", environment: fixture.environment)
        await model?.start().value
        fixture.server.setLatency(.seconds(1))
        let sending = try #require(model?.send("sent after leaving"))
        model?.close()
        weak let released = model
        model = nil
        #expect(released == nil, "the send does not keep the view model")
        await fixture.clock.waitForSleepers(1)
        fixture.server.setLatency(.zero)
        fixture.clock.advance(by: .seconds(1))
        await sending.value
        #expect(try await fixture.serverMessages("general").last?.text == "sent after leaving")
    }

    @Test func blankTextIsNotSent() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        let deliveries = chat.messages.count
        let requests = fixture.server.requestCount
        await chat.model.send("   ").value
        await chat.model.send("").value
        try await fixture.settle()
        #expect(chat.messages.count == deliveries)
        #expect(fixture.server.requestCount == requests)
    }

    @Test func aRejectedMessageFailsAndIsResentOnceTheRuleIsGone() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        fixture.server.rejectMessages(containing: "forbidden", reason: "no forbidden words")
        await chat.model.send("a forbidden word").value

        let failed = try #require(chat.messages.latest?.last)
        #expect(failed.text == "a forbidden word")
        #expect(failed.state == .failed)
        let notSent = "not sent: rejected by the server: no forbidden words (/resend to try again)"
        #expect(chat.notices.values == [notSent])
        #expect(chat.status.latest?.error == nil, "a failed send is a notice; the failed row stays")

        // The rule stays until the server's failures are reset.
        await chat.model.resendFailed().value
        #expect(chat.messages.latest?.filter { $0.state == .failed }.map(\.text) == ["a forbidden word"])
        #expect(chat.notices.values == [notSent, notSent], "each failed attempt is told once")

        fixture.server.resetFailures()
        await chat.model.resendFailed().value
        let shown = try await chat.messages.value { $0.last?.state == .sent && $0.last?.text == "a forbidden word" }
        #expect(!shown.contains { $0.state != .sent })
        #expect(chat.notices.count == 2)
        #expect(chat.status.latest?.error == nil)
        #expect(try await fixture.serverMessages("general").filter { $0.text == "a forbidden word" }.count == 1)
    }

    @Test func discardFailedRemovesTheFailedMessages() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        let before = try #require(chat.messages.latest)
        fixture.server.rejectMessages(containing: "nope", reason: "not allowed")
        await chat.model.send("nope one").value
        await chat.model.send("nope two").value
        #expect(chat.messages.latest?.filter { $0.state == .failed }.map(\.text) == ["nope one", "nope two"])

        await chat.model.discardFailed().value
        #expect(chat.messages.latest == before)
        let cached = try await fixture.client.store.read { connection in
            try Message.read(SocialQuery<Message>.messages(channelId: "general", newestFirst: false).cacheQuery, from: connection)
        }
        #expect(!cached.contains { $0.text.hasPrefix("nope") }, "gone from the cache too")

        let deliveries = chat.messages.count
        await chat.model.discardFailed().value
        #expect(chat.messages.count == deliveries, "nothing left to discard")
    }

    @Test func aMessageWrittenOfflineStaysPendingAndIsSentOnceOnline() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        try await fixture.goOffline()
        await chat.model.send("written offline").value
        let pending = try #require(chat.messages.latest?.last)
        #expect(pending.text == "written offline")
        #expect(pending.state == .pending)
        #expect(chat.status.latest?.error == "offline: the message will be sent when the connection is back")
        #expect(try await fixture.serverMessages("general").last?.text != "written offline")

        fixture.server.reconnect()
        let shown = try await chat.messages.next { rows in
            rows.contains { $0.text == "written offline" && $0.state == .sent }
        }
        #expect(!shown.contains { $0.state == .pending })
        #expect(try await fixture.serverMessages("general").filter { $0.text == "written offline" }.count == 1)
    }

    @Test
    func theOfflineErrorClearsOnceThePendingMessageIsSent() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        try await fixture.goOffline()
        await chat.model.send("written offline").value
        #expect(chat.status.latest?.error != nil)
        fixture.server.reconnect()
        _ = try await chat.messages.next { rows in rows.contains { $0.text == "written offline" && $0.state == .sent } }
        try await fixture.settle()
        #expect(chat.status.latest?.error == nil, "ScreenStatus.error is 'nil once things work again'")
    }

    // MARK: Others, catching up

    @Test func anotherUsersReplyArrivesLive() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        let reply = try await fixture.say("hi ada", in: "general", as: "alan")
        let shown = try await chat.messages.next { $0.last?.text == "hi ada" }
        #expect(shown.last == rows([reply]).first)
        #expect(shown.last?.isMine == false)
        #expect(shown == rows(try await fixture.serverMessages("general").suffix(21)))
        #expect(chat.notices.values.isEmpty, "a live message is no catch-up")
    }

    @Test func comingBackOnlineCatchesUpWithTheChangeLog() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        try await fixture.goOffline()
        try await fixture.say("first while away", in: "general", as: "alan")
        try await fixture.say("second while away", in: "general", as: "grace")
        try await fixture.say("third while away", in: "general", as: "alan")
        try await fixture.settle()
        #expect(chat.messages.latest?.last?.text != "third while away")

        fixture.server.reconnect()
        #expect(try await chat.notices.next() == "caught up: 3 message changes from the change log")
        let shown = try await chat.messages.value { $0.last?.text == "third while away" }
        #expect(shown.suffix(3).map(\.text) == ["first while away", "second while away", "third while away"])
        #expect(Array(shown.suffix(23)) == rows(try await fixture.serverMessages("general").suffix(23)))
    }

    @Test func aCatchUpOfOneMessageSaysSo() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        try await fixture.goOffline()
        try await fixture.say("only one", in: "general", as: "tim")
        fixture.server.reconnect()
        #expect(try await chat.notices.next() == "caught up: 1 message change from the change log")
    }

    @Test
    func eachCatchUpCountsOnlyItsOwnChanges() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture)
        try await fixture.goOffline()
        for number in 1...3 { try await fixture.say("away \(number)", in: "general", as: "alan") }
        try await fixture.goOnline()
        #expect(try await chat.notices.next() == "caught up: 3 message changes from the change log")

        try await fixture.goOffline()
        for number in 4...5 { try await fixture.say("away \(number)", in: "general", as: "grace") }
        fixture.server.reconnect()
        #expect(try await chat.notices.next() == "caught up: 2 message changes from the change log")
        #expect(chat.notices.count == 2, "one notice per catch-up")
    }

    @Test func aHugeGapReloadsTheNewestMessages() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture, hugeGapThreshold: 5)
        try await fixture.goOffline()
        try await fixture.others.flood(10, in: "general")
        fixture.server.reconnect()

        let gap = try await chat.notices.next { $0.hasPrefix("huge gap") }
        #expect(gap == "huge gap: over 5 changes missed; reloaded the newest messages")
        #expect(chat.status.latest?.source == .nothing)
        let fresh = try await chat.status.next { $0.source == .fresh && !$0.isLoading }
        #expect(fresh.error == nil)
        let shown = try await chat.messages.value { $0.last?.text == "Message 10 of 10 while you were away" }
        #expect(shown == rows(try await fixture.serverMessages("general").suffix(20)))
        #expect(shown.suffix(10).map(\.text) == (1...10).map { "Message \($0) of 10 while you were away" })

        // The new collection is live.
        try await fixture.say("after the gap", in: "general", as: "tim")
        let live = try await chat.messages.next { $0.last?.text == "after the gap" }
        #expect(live.last?.sender == "tim")
        #expect(chat.model.title.record().latest == "General")
    }

    @Test func aCatchUpUnderTheThresholdIsNoHugeGap() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture, hugeGapThreshold: 5)
        try await fixture.goOffline()
        try await fixture.others.flood(4, in: "general")
        fixture.server.reconnect()
        #expect(try await chat.notices.next() == "caught up: 4 message changes from the change log")
        #expect(!chat.notices.values.contains { $0.hasPrefix("huge gap") })
    }

    // MARK: Reading, leaving

    @Test func markReadSetsTheMarkerToTheChannelsMessageCount() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture, start: false)
        chat.model.markRead()
        #expect(fixture.readMarkers.counts.data == [:], "nothing to mark before the channel is known")

        await chat.model.start().value
        let count = try await fixture.serverChannel("general").messageCount
        chat.model.markRead()
        #expect(fixture.readMarkers.readCount(of: "general") == count)

        // A list of channels shows when the channel's update has reached the client's listeners.
        let list = ChannelListViewModel(environment: fixture.environment)
        let rows = list.rows.record()
        await list.load().value
        try await fixture.say("one more", in: "general", as: "alan")
        _ = try await rows.next { $0.first { $0.id == "general" }?.lastMessage == "one more" }
        #expect(rows.latest?.first { $0.id == "general" }?.unreadCount == 1)
        chat.model.markRead()
        #expect(fixture.readMarkers.readCount(of: "general") == count + 1)
        #expect(rows.latest?.first { $0.id == "general" }?.unreadCount == 0)
    }

    @Test func closeMakesStartReturnAndDeliversNothingMore() async throws {
        let fixture = try await EnvironmentFixture.make()
        fixture.server.setLatency(.seconds(1))
        let chat = await openChat(fixture, start: false)
        let starting = chat.model.start()
        await fixture.clock.waitForSleepers(1)
        chat.model.close()
        await starting.value
        fixture.server.setLatency(.zero)
        #expect(fixture.clock.sleeperCount == 0, "the request under way was canceled")

        let deliveries = chat.messages.count
        try await fixture.say("after the close", in: "general", as: "alan")
        await chat.model.send("not sent after the close").value
        await chat.model.start().value
        await chat.model.loadPrevious().value
        try await fixture.settle()
        #expect(chat.messages.count == deliveries)
        #expect(try await fixture.serverMessages("general").last?.text == "after the close")
    }

    @Test func aDeletedChannelIsAnError() async throws {
        let fixture = try await EnvironmentFixture.make()
        let chat = await openChat(fixture, "random")
        try await fixture.server.deleteChannel("random")
        let deleted = try await chat.status.next { $0.error != nil }
        #expect(deleted.error == "this channel was deleted")
    }
}
