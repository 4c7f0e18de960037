import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MessageRepositoryTests {
    @Test func aChatOpensOnTheNewestPageInChatOrderAndPagesBack() async throws {
        let fixture = try await ClientFixture()
        let all = try await fixture.server.records(.messages(channelId: "general", newestFirst: false))
        let messages = fixture.client.messages.messages(channelId: "general")
        let (log, token) = messages.record()
        let fresh = try await messages.next(in: log) { $0.dataStatus == .fresh }
        #expect(fresh.records.map(\.id) == all.suffix(20).map(\.id))
        #expect(messages.hasPrevious)
        #expect(!messages.hasNext)
        messages.previousPage()
        let expected = min(40, all.count)
        let older = try await messages.next(in: log) { $0.records.count == expected && $0.loadingStatus == .loaded }
        #expect(older.records.map(\.id) == all.suffix(40).map(\.id))
        #expect(messages.hasPrevious == (all.count > 40))
        _ = token
    }

    @Test func anotherUsersMessageArrivesLiveAtTheEnd() async throws {
        let fixture = try await ClientFixture()
        let messages = fixture.client.messages.messages(channelId: "general")
        let (log, token) = messages.record()
        let fresh = try await messages.next(in: log) { $0.dataStatus == .fresh }
        _ = try await fixture.server.perform(.sendText("elsewhere", channelId: "random", clientRequestId: "r1"), as: "alan")
        _ = try await fixture.server.perform(.sendText("hello live", channelId: "general", clientRequestId: "g1"), as: "alan")
        let live = try await messages.next(in: log) { $0.records.last?.text == "hello live" }
        #expect(live.records.count == fresh.records.count + 1)
        #expect(live.change?.insertions == [fresh.records.count])
        #expect(!live.records.contains { $0.text == "elsewhere" })
        _ = token
    }

    @Test func aSentMessageIsPendingThenSyncedAndNeverDuplicated() async throws {
        let fixture = try await ClientFixture()
        let messages = fixture.client.messages.messages(channelId: "general")
        let (log, token) = messages.record()
        let fresh = try await messages.next(in: log) { $0.dataStatus == .fresh }
        // The server answers after a second of clock time, so the pending copy is delivered first
        // (with no latency the two writes can land before one window read, which shows only the last).
        fixture.server.setLatency(.seconds(1))
        let sending = Task { try await fixture.client.messages.send("on my way", to: "general") }
        let pending = try await messages.next(in: log) { $0.records.last?.text == "on my way" }
        #expect(pending.records.last?.syncState == .syncing)
        #expect(pending.records.last?.isPending == true)
        await fixture.clock.waitForSleepers(1)
        fixture.clock.advance(by: .seconds(1))
        let sent = try await sending.value
        let final = try await messages.next(in: log) {
            $0.records.last?.id == sent.id && $0.records.last?.syncState == .synced
        }
        #expect(final.records.count == fresh.records.count + 1)
        #expect(final.records.last?.id == sent.id)
        #expect(final.records.last?.syncState == .synced)
        #expect(final.records.last?.clientRequestId == pending.records.last?.clientRequestId)
        #expect(final.records.filter { $0.text == "on my way" }.count == 1)
        #expect(log.all.allSatisfy { $0.records.filter { $0.text == "on my way" }.count <= 1 })
        _ = token
    }

    @Test func anotherUsersMessageWithAClientRequestIdEqualToACachedIdRemovesNothing() async throws {
        let fixture = try await ClientFixture()
        let messages = fixture.client.messages.messages(channelId: "general")
        let (log, token) = messages.record()
        let fresh = try await messages.next(in: log) { $0.dataStatus == .fresh }
        // One of ada's own messages, and one that someone else sent: neither may be removed.
        let own = try #require(fresh.records.first { $0.userId == "ada" })
        let other = try #require(fresh.records.first { $0.userId != "ada" })
        for (text, requestId) in [("same id as ada's", own.id), ("same id as another's", other.id)] {
            _ = try await fixture.server.perform(
                .sendMessage(channelId: "general", clientRequestId: requestId, type: .text, text: text, parentId: nil),
                as: "alan")
            _ = try await messages.next(in: log) { $0.records.last?.text == text }
        }
        let arrived = messages.allObjects()
        #expect(arrived.count == fresh.records.count + 2)
        #expect(arrived.contains(own) && arrived.contains(other))
        #expect(Array(arrived.prefix(fresh.records.count)) == fresh.records)
        #expect(try await fixture.client.store.read { try CacheTransactionFree.count(Message.self, id: own.id, in: $0) } == 1)
        #expect(try await fixture.client.store.read { try CacheTransactionFree.count(Message.self, id: other.id, in: $0) } == 1)
        _ = token
    }

    @Test func aMessageTheServerRejectsStaysWithAnError() async throws {
        let fixture = try await ClientFixture()
        fixture.server.rejectMessages(containing: "spam", reason: "no spam here")
        let messages = fixture.client.messages.messages(channelId: "general")
        let (log, token) = messages.record()
        _ = try await messages.next(in: log) { $0.dataStatus == .fresh }
        await #expect(throws: SocialAPIError.rejected("no spam here")) {
            try await fixture.client.messages.send("buy spam", to: "general")
        }
        let failed = try await messages.next(in: log) { $0.records.last?.syncState == .error }
        #expect(failed.records.last?.text == "buy spam")
        _ = token
    }

    @Test func editsAndDeletesFromOthersUpdateTheCollection() async throws {
        let fixture = try await ClientFixture()
        let messages = fixture.client.messages.messages(channelId: "general")
        let (log, token) = messages.record()
        let fresh = try await messages.next(in: log) { $0.dataStatus == .fresh }
        let target = try #require(fresh.records.last)
        _ = try await fixture.server.perform(.editMessage(id: target.id, text: "edited"), as: target.userId)
        let edited = try await messages.next(in: log) { $0.records.last?.text == "edited" }
        #expect(edited.change?.modifications == [fresh.records.count - 1])
        _ = try await fixture.server.perform(.deleteMessage(id: target.id), as: target.userId)
        let deleted = try await messages.next(in: log) { !$0.records.contains { $0.id == target.id } }
        #expect(deleted.change?.deletions == [fresh.records.count - 1])
        _ = token
    }

    @Test func typeAndSenderFiltersApplyToCacheAndServer() async throws {
        let fixture = try await ClientFixture()
        let messages = fixture.client.messages.messages(channelId: "general", types: [.text], senderId: "alan")
        let (log, token) = messages.record()
        let fresh = try await messages.next(in: log) { $0.dataStatus == .fresh }
        #expect(!fresh.records.isEmpty)
        #expect(fresh.records.allSatisfy { $0.userId == "alan" && $0.type == .text })
        _ = try await fixture.server.perform(.sendText("from grace", channelId: "general", clientRequestId: "x1"), as: "grace")
        _ = try await fixture.server.perform(.sendText("from alan", channelId: "general", clientRequestId: "x2"), as: "alan")
        let live = try await messages.next(in: log) { $0.records.last?.text == "from alan" }
        #expect(!live.records.contains { $0.text == "from grace" })
        _ = token
    }

    @Test func aSecondOpenShowsTheCacheFirstEvenOffline() async throws {
        let fixture = try await ClientFixture()
        let first = fixture.client.messages.messages(channelId: "general")
        let (firstLog, firstToken) = first.record()
        let fresh = try await first.next(in: firstLog) { $0.dataStatus == .fresh }
        fixture.server.disconnect()
        let again = fixture.client.messages.messages(channelId: "general")
        let (log, token) = again.record()
        let local = try await log.next()
        #expect(local.dataStatus == .local)
        #expect(local.records.map(\.id) == fresh.records.map(\.id))
        let failed = try await again.next(in: log) { $0.loadingStatus == .error }
        #expect(failed.dataStatus == .local)
        #expect(failed.records.count == fresh.records.count)
        #expect((failed.error as? SocialAPIError) == .offline)
        _ = (firstToken, token)
    }
}
