import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

/// The requests a chat view makes: messages around a point in time, scoped change logs, and the
/// extras messages carry.
@Suite(.timeLimit(.minutes(3)))
struct EmbeddedServerChatTests {
    @Test func fetchMessagesPagesBothWaysFromATimeWithoutGapsOrRepeats() async throws {
        let fixture = try ServerFixture()
        _ = try await fixture.server.createUser(id: "ada", displayName: "Ada")
        _ = try await fixture.server.createChannel(id: "c", displayName: "C", type: .community, memberIds: ["ada"])
        for index in 0..<30 {
            _ = try await fixture.server.perform(.sendText("m\(index)", channelId: "c", clientRequestId: "r\(index)"), as: "ada")
        }
        let all = try await fixture.server.records(.messages(channelId: "c", newestFirst: false))
        let middle = all[15]
        let api = fixture.connection()
        let older = SocialQuery<Message>.messages(channelId: "c", newestFirst: true)
        let newer = SocialQuery<Message>.messages(channelId: "c", newestFirst: false)

        let before = try await api.fetchMessages(older, after: .before(middle.createdAt, inclusive: false), limit: 5)
        #expect(before.map(\.id) == all[10..<15].reversed().map(\.id))
        let atAndBefore = try await api.fetchMessages(older, after: .before(middle.createdAt, inclusive: true), limit: 5)
        #expect(atAndBefore.map(\.id) == all[11...15].reversed().map(\.id))
        let after = try await api.fetchMessages(newer, after: .after(middle.createdAt, inclusive: false), limit: 5)
        #expect(after.map(\.id) == all[16..<21].map(\.id))
        let atAndAfter = try await api.fetchMessages(newer, after: .after(middle.createdAt, inclusive: true), limit: 5)
        #expect(atAndAfter.map(\.id) == all[15..<20].map(\.id))

        // Paging on from the last message of a page reaches the end with every message once.
        var pages: [Message] = []
        var position = MessagePosition.after(-.infinity, inclusive: true)
        while true {
            let page = try await api.fetchMessages(newer, after: position, limit: 7)
            pages += page
            guard let last = page.last, page.count == 7 else { break }
            position = MessagePosition(of: last)
        }
        #expect(pages.map(\.id) == all.map(\.id))
        await #expect(throws: SocialAPIError.invalidRequest("a page limit must be positive, not 0")) {
            try await api.fetchMessages(newer, after: position, limit: 0)
        }
    }

    @Test func scopedChangeLogsHoldOnlyTheirOwnRecords() async throws {
        let fixture = try await ServerFixture.seeded()
        let since = try await fixture.server.latestSequence()
        _ = try await fixture.server.perform(.sendText("to general", channelId: "general", clientRequestId: "g"), as: "ada")
        _ = try await fixture.server.perform(.sendText("to random", channelId: "random", clientRequestId: "r"), as: "ada")
        _ = try await fixture.server.perform(.follow(userId: "tim"), as: "ada")
        let api = fixture.connection()

        let general = try await api.changes(since: since, limit: 100, scope: .messages(channelId: "general"))
        #expect(general.records(of: Message.self).map(\.text) == ["to general"])
        #expect(general.records.count == 1 && general.deleted.isEmpty && !general.hasMore)

        let channels = try await api.changes(since: since, limit: 100, scope: .channels)
        #expect(Set(channels.records(of: Channel.self).map(\.id)) == ["general", "random"])
        #expect(channels.records.allSatisfy { $0.kind == .channel })

        let all = try await api.changes(since: since, limit: 100)
        #expect(all.records.contains { $0.kind == .follow })
        #expect(all.records.filter { ChangeScope.messages(channelId: "general").contains($0) }.count == 1)
        #expect(all.latestSequence >= general.latestSequence)

        // A scoped page that is full says so.
        let first = try await api.changes(since: since - 50, limit: 1, scope: .channels)
        #expect(first.records.count == 1 && first.hasMore)
    }

    @Test func messagesKeepTheirMetaArraysAndAReactionSummary() async throws {
        let fixture = try await ServerFixture.seeded()
        let sent = try await fixture.server.perform(
            .sendMessage(channelId: "general", clientRequestId: "meta", type: .text, text: "tagged", parentId: nil,
                         metaArrays: ["tags": ["a", "b"]]), as: "ada")
        let message = try #require(sent.first(Message.self))
        #expect(message.metaArrays == ["tags": ["a", "b"]])
        #expect(message.reactions.isEmpty)

        _ = try await fixture.server.perform(.addReaction(targetType: .message, targetId: message.id, name: "like"), as: "alan")
        _ = try await fixture.server.perform(.addReaction(targetType: .message, targetId: message.id, name: "like"), as: "grace")
        _ = try await fixture.server.perform(.addReaction(targetType: .message, targetId: message.id, name: "wow"), as: "alan")
        var stored = try #require(try await fixture.server.record(Message.self, id: message.id))
        #expect(stored.reactions == [MessageReaction(key: "like", userIds: ["alan", "grace"]),
                                     MessageReaction(key: "wow", userIds: ["alan"])])
        #expect(stored.reactionCount == 3)

        _ = try await fixture.server.perform(.removeReaction(targetType: .message, targetId: message.id, name: "wow"), as: "alan")
        _ = try await fixture.server.perform(.removeReaction(targetType: .message, targetId: message.id, name: "like"), as: "alan")
        stored = try #require(try await fixture.server.record(Message.self, id: message.id))
        #expect(stored.reactions == [MessageReaction(key: "like", userIds: ["grace"])])
        #expect(stored.reactionCount == 1)
        #expect(stored.metaArrays == ["tags": ["a", "b"]])
    }
}
