import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@Suite(.timeLimit(.minutes(3))) struct EmbeddedServerNetworkTests {
    @Test func aRequestDoesNotCompleteUntilTheClockPassesTheLatency() async throws {
        let fixture = try await ServerFixture.seeded()
        fixture.server.setLatency(.milliseconds(150))
        let api = fixture.connection()
        let done = Flag()
        let request = Task {
            let user = try await api.fetch(User.self, id: "ada")
            done.set()
            return user
        }
        await fixture.clock.waitForSleepers(1)
        fixture.clock.advance(by: .milliseconds(149))
        #expect(fixture.clock.sleeperCount == 1)
        await Task.yield()
        #expect(!done.isSet)
        #expect(fixture.server.requestCount == 0)
        fixture.clock.advance(by: .milliseconds(1))
        #expect(try await request.value?.id == "ada")
        #expect(done.isSet && fixture.server.requestCount == 1)
    }

    @Test func theNextRequestsFailWhenToldTo() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection()
        fixture.server.failNextRequests(2, message: "HTTP 503")
        await #expect(throws: SocialAPIError.serverFailure("HTTP 503")) { try await api.fetch(User.self, id: "ada") }
        await #expect(throws: SocialAPIError.serverFailure("HTTP 503")) {
            try await api.perform(.sendText("lost", channelId: "general", clientRequestId: "f"))
        }
        #expect(try await api.fetch(User.self, id: "ada") != nil)
        #expect(try await fixture.server.records(SocialQuery.messages(channelId: "general")).allSatisfy { $0.text != "lost" })
    }

    @Test func requestsOfAKindFailUntilReset() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection()
        fixture.server.failRequests([.fetchPage])
        await #expect(throws: SocialAPIError.self) { try await api.fetchPage(SocialQuery.channels(), cursor: nil, limit: 5) }
        #expect(try await api.fetch(Channel.self, id: "general") != nil)
        fixture.server.resetFailures()
        #expect(try await api.fetchPage(SocialQuery.channels(), cursor: nil, limit: 5).records.count == 4)
    }

    @Test func requestsThrowOfflineWhileDisconnected() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection()
        fixture.server.disconnect()
        #expect(!fixture.server.isConnected)
        await #expect(throws: SocialAPIError.offline) { try await api.fetch(User.self, id: "ada") }
        await #expect(throws: SocialAPIError.offline) { try await api.changes(since: 0, limit: 10) }
        fixture.server.reconnect()
        #expect(try await api.fetch(User.self, id: "ada") != nil)
    }

    @Test func aDisconnectDuringTheLatencyFailsTheRequest() async throws {
        let fixture = try await ServerFixture.seeded(latency: .seconds(1))
        let api = fixture.connection()
        let request = Task { try await api.perform(.sendText("late", channelId: "general", clientRequestId: "l")) }
        await fixture.clock.waitForSleepers(1)
        fixture.server.disconnect()
        fixture.clock.advance(by: .seconds(1))
        await #expect(throws: SocialAPIError.offline) { try await request.value }
    }

    @Test func eventsArriveInOrderWithIncreasingSequences() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection("ada")
        var events = api.events().makeAsyncIterator()
        #expect(await events.next() == .connected)
        let sent = try await api.perform(.sendText("one", channelId: "general", clientRequestId: "e1"))
        try await fixture.server.perform(.sendText("two", channelId: "general", clientRequestId: "e2"), as: "alan")
        var received: [SocialEvent] = []
        for _ in 0..<4 { received.append(try #require(await events.next())) }
        let sequences = received.compactMap(\.sequence)
        #expect(sequences.count == 4 && sequences == sequences.sorted() && Set(sequences).count == 4)
        #expect(received[0] == .created(.message(try #require(sent.first(Message.self))), sequence: sequences[0]))
        #expect(received[1].key == SocialRecordKey(.channel, "general"))
        guard case .created(.message(let second), _) = received[2] else {
            Issue.record("expected alan's message, got \(received[2])")
            return
        }
        #expect(second.text == "two" && second.userId == "alan")
        #expect(sent.sequence == sequences[1])
    }

    @Test func eventsAreMissedWhileDisconnected() async throws {
        let fixture = try await ServerFixture.seeded()
        var events = fixture.connection().events().makeAsyncIterator()
        #expect(await events.next() == .connected)
        fixture.server.disconnect()
        #expect(await events.next() == .disconnected)
        try await fixture.server.perform(.follow(userId: "tim"), as: "alan")
        fixture.server.reconnect()
        #expect(await events.next() == .connected)
        try await fixture.server.perform(.sendText("back", channelId: "general", clientRequestId: "b"), as: "alan")
        let next = try #require(await events.next())
        guard case .created(.message(let message), _) = next else {
            Issue.record("expected the message after reconnecting, got \(next)")
            return
        }
        #expect(message.text == "back")
    }

    @Test func aNewStreamStartsWithTheConnectionState() async throws {
        let fixture = try ServerFixture()
        fixture.server.disconnect()
        var events = fixture.connection().events().makeAsyncIterator()
        #expect(await events.next() == .disconnected)
        #expect(fixture.server.subscriberCount == 1)
    }

    @Test func changesSinceReturnWhatWasMissedIncludingDeletes() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection("ada")
        let since = try await api.latestSequence()
        let mine = try #require(try await api.perform(.sendText("mine", channelId: "general", clientRequestId: "c1")).first(Message.self))
        try await api.perform(.addReaction(targetType: .message, targetId: mine.id, name: "like"))
        fixture.server.disconnect()
        try await fixture.server.perform(.addReaction(targetType: .message, targetId: mine.id, name: "love"), as: "alan")
        try await fixture.server.perform(.removeReaction(targetType: .message, targetId: mine.id, name: "love"), as: "alan")
        try await fixture.server.perform(.unfollow(userId: "alan"), as: "ada")
        try await fixture.server.perform(.deleteMessage(id: mine.id), as: "ada")
        fixture.server.reconnect()

        let all = try await api.changes(since: since, limit: 1_000)
        let latest = try await api.latestSequence()
        #expect(!all.hasMore && all.latestSequence == latest)
        #expect(all.records(of: Message.self).map(\.isDeleted) == [true])
        #expect(all.records(of: Message.self).first?.reactionCount == 1)
        #expect(Set(all.deleted) == [
            SocialRecordKey(.reaction, Reaction.makeID(targetType: .message, targetId: mine.id, userId: "alan", name: "love")),
            SocialRecordKey(.follow, "ada->alan"),
        ])
        #expect(Set(all.records.map(\.key)).count == all.records.count)

        var paged: [SocialRecordKey: SocialRecord] = [:]
        var removed: Set<SocialRecordKey> = []
        var cursor = since
        var rounds = 0
        while true {
            let log = try await api.changes(since: cursor, limit: 3)
            rounds += 1
            for record in log.records { paged[record.key] = record; removed.remove(record.key) }
            for key in log.deleted { removed.insert(key); paged[key] = nil }
            cursor = log.latestSequence
            if !log.hasMore { break }
        }
        #expect(rounds > 1 && cursor == all.latestSequence)
        #expect(paged == Dictionary(uniqueKeysWithValues: all.records.map { ($0.key, $0) }))
        #expect(removed == Set(all.deleted))
    }

    @Test func changesSinceTheLatestSequenceAreEmpty() async throws {
        let fixture = try await ServerFixture.seeded()
        let api = fixture.connection()
        let latest = try await api.latestSequence()
        let log = try await api.changes(since: latest, limit: 10)
        #expect(log == ChangeLog(records: [], deleted: [], latestSequence: latest, hasMore: false))
    }

    @Test func errorsDescribeThemselves() {
        #expect(SocialAPIError.offline.description.contains("offline"))
        #expect(SocialAPIError.rejected("no spam").description.contains("no spam"))
        #expect(SocialAPIError.notFound(SocialRecordKey(.post, "p1")).description.contains("post/p1"))
        #expect(SocialAPIError.serverFailure("x").isTransient && !SocialAPIError.rejected("x").isTransient)
    }
}
