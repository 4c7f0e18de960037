import LiveData
import LiveRepository
@_spi(Testing) import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// How ``MessageListParams`` shape a message collection: order, inclusiveness, filters, what is
/// stripped, result sizes.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MessageCollectionParamsTests {
    // MARK: Parameters

    @Test func reverseListsNewestFirstInTheListTheHandlersAndThePages() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 100)
        let point = all[50].createdAt
        let window = Array(all[45..<50] + all[51..<56])
        let forward = try await fixture.open(
            channelId, at: point, params: MessageListParams(previousResultSize: 5, nextResultSize: 5))
        #expect(forward.result.api == window)
        #expect(forward.collection.succeededMessages == window)

        let backward = try await fixture.open(
            channelId, at: point, params: MessageListParams(reverse: true, previousResultSize: 5, nextResultSize: 5))
        #expect(backward.result.cached == Array(window.reversed()))
        #expect(backward.result.api == Array(window.reversed()))
        #expect(backward.collection.succeededMessages == Array(window.reversed()))
        #expect(try await backward.collection.loadPrevious() == Array(all[40..<45].reversed()))
        #expect(try await backward.collection.loadNext() == Array(all[56..<61].reversed()))
        let loaded = Array((all[40..<50] + all[51..<61]).reversed())
        #expect(backward.collection.succeededMessages == loaded)
        #expect(backward.collection.snapshot.data?.succeededMessages == loaded)
    }

    @Test func isInclusiveDecidesWhetherTheMessageAtTheStartingPointIsListed() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 100)
        let point = all[50].createdAt
        func opened(inclusive: Bool, next: Int) async throws -> [Message]? {
            let params = MessageListParams(isInclusive: inclusive, previousResultSize: 5, nextResultSize: next)
            return try await fixture.open(channelId, at: point, params: params).result.api
        }
        #expect(try await opened(inclusive: false, next: 5) == Array(all[45..<50] + all[51..<56]))
        #expect(try await opened(inclusive: true, next: 5) == Array(all[45..<55]))
        // With no newer side, the message at the starting point belongs to the older side.
        #expect(try await opened(inclusive: false, next: 0) == Array(all[45..<50]))
        #expect(try await opened(inclusive: true, next: 0) == Array(all[46...50]))
    }

    @Test func messageTypeFilterListsOnlyItsFamilyFromTheServerAndLive() async throws {
        let fixture = try await ClientFixture()
        try await fixture.server.createChannel(id: "types", displayName: "Types", type: .community, memberIds: ["alan", "ada"])
        for (index, type) in (MessageType.allCases + MessageType.allCases).enumerated() {
            try await fixture.server.perform(
                .sendMessage(
                    channelId: "types", clientRequestId: "type-\(index)", type: type, text: "\(type) \(index)", parentId: nil),
                as: "alan")
        }
        let seeded = try await fixture.serverMessages("types")
        try await fixture.waitFor(Message.self, id: try #require(seeded.last).id) { $0 != nil }
        var opened: [MessageTypeFilter: OpenedCollection] = [:]
        for filter in MessageTypeFilter.allCases {
            let collection = try await fixture.open("types", params: MessageListParams(messageTypeFilter: filter))
            let server = try await fixture.server.records(.messages(channelId: "types", types: filter.types, newestFirst: false))
            #expect(collection.result.api == server, "\(filter)")
            #expect(collection.collection.succeededMessages.allSatisfy { filter.types?.contains($0.type) ?? true }, "\(filter)")
            opened[filter] = collection
        }
        #expect(opened[.all]?.collection.succeededMessages.count == 10)
        #expect(opened[.user]?.collection.succeededMessages.map(\.type) == [.text, .custom, .text, .custom])
        #expect(opened[.file]?.collection.succeededMessages.map(\.type) == [.image, .file, .image, .file])
        #expect(opened[.admin]?.collection.succeededMessages.map(\.type) == [.system, .system])

        // Live: each collection adds only its own kinds.
        for (index, type) in [MessageType.image, .system, .text].enumerated() {
            try await fixture.server.perform(
                .sendMessage(
                    channelId: "types", clientRequestId: "live-\(index)", type: type, text: "live \(type)", parentId: nil),
                as: "alan")
        }
        let user = try #require(opened[.user])
        _ = try await user.recorder.next { $0.isAdded(source: .event) }
        let file = try #require(opened[.file])
        let admin = try #require(opened[.admin])
        let all = try #require(opened[.all])
        _ = try await all.recorder.next { $0.messages.last?.text == "live text" }
        #expect(user.recorder.addedMessages.map(\.type) == [.text])
        #expect(file.recorder.addedMessages.map(\.type) == [.image])
        #expect(admin.recorder.addedMessages.map(\.type) == [.system])
        #expect(all.recorder.addedMessages.map(\.type) == [.image, .system, .text])
    }

    @Test func metaArraysAreStrippedUnlessIncluded() async throws {
        let fixture = try await ClientFixture()
        let meta = ["color": ["red"], "tags": ["a", "b"]]
        let sent = try await fixture.sendAsOther("with extras", metaArrays: meta)
        try await fixture.waitFor(Message.self, id: sent.id) { $0 != nil }
        let without = try await fixture.open("general")
        let with = try await fixture.open("general", params: MessageListParams(includeMetaArray: true))
        #expect(without.result.api?.last?.id == sent.id)
        #expect(without.result.api?.last?.metaArrays == [:])
        #expect(with.result.cached?.last?.metaArrays == meta)
        #expect(with.result.api?.last?.metaArrays == meta)
        #expect(try await fixture.cachedMessage(sent.id)?.metaArrays == meta)

        let live = try await fixture.sendAsOther("live extras", metaArrays: meta)
        let withAdded = try await with.recorder.next { $0.isAdded(source: .event) }
        let withoutAdded = try await without.recorder.next { $0.isAdded(source: .event) }
        #expect(withAdded.messages.map(\.id) == [live.id])
        #expect(withAdded.messages.first?.metaArrays == meta)
        #expect(withoutAdded.messages.first?.metaArrays == [:])
        #expect(without.collection.succeededMessages.allSatisfy { $0.metaArrays.isEmpty })
    }

    @Test func reactionsAreStrippedUnlessIncludedButTheirCountStays() async throws {
        let fixture = try await ClientFixture()
        let target = try #require(try await fixture.serverMessages("general").last)
        try await fixture.server.perform(.addReaction(targetType: .message, targetId: target.id, name: "like"), as: "grace")
        try await fixture.waitFor(Message.self, id: target.id) { $0?.reactionCount == 1 }
        let without = try await fixture.open("general")
        let with = try await fixture.open("general", params: MessageListParams(includeReactions: true))
        #expect(with.result.api?.last?.reactions == [MessageReaction(key: "like", userIds: ["grace"])])
        #expect(with.result.api?.last?.reactionCount == 1)
        #expect(without.result.api?.last?.reactions == [])
        #expect(without.result.api?.last?.reactionCount == 1)

        try await fixture.server.perform(.addReaction(targetType: .message, targetId: target.id, name: "clap"), as: "tim")
        let withUpdate = try await with.recorder.next { $0.isUpdated(source: .event) }
        let withoutUpdate = try await without.recorder.next { $0.isUpdated(source: .event) }
        #expect(withUpdate.context == MessageContext(sendingStatus: .succeeded, source: .event))
        let both = [MessageReaction(key: "like", userIds: ["grace"]), MessageReaction(key: "clap", userIds: ["tim"])]
        #expect(withUpdate.messages.map(\.reactions) == [both])
        #expect(withUpdate.messages.map(\.reactionCount) == [2])
        #expect(withoutUpdate.messages.map(\.reactions) == [[]])
        #expect(withoutUpdate.messages.map(\.reactionCount) == [2])
        #expect(without.collection.succeededMessages.last?.reactionCount == 2)
    }

    @Test func resultSizesSetTheWindowAndThePageSizes() async throws {
        let fixture = try await ClientFixture()
        let (channelId, all) = try await fixture.loadHistory(count: 100)
        let point = all[50].createdAt
        let small = try await fixture.open(
            channelId, at: point, params: MessageListParams(previousResultSize: 5, nextResultSize: 3))
        #expect(small.result.api == Array(all[45..<50] + all[51..<54]))
        #expect(small.collection.hasPrevious && small.collection.hasNext)
        #expect(try await small.collection.loadPrevious() == Array(all[40..<45]))
        #expect(try await small.collection.loadNext() == Array(all[54..<57]))

        let olderOnly = try await fixture.open(channelId, at: point, params: MessageListParams(nextResultSize: 0))
        #expect(olderOnly.result.api == Array(all[30..<50]))
        #expect(olderOnly.collection.hasPrevious)
        #expect(olderOnly.collection.hasNext, "newer messages exist, though none are listed")

        let newerOnly = try await fixture.open(
            channelId, at: all[0].createdAt - 1, params: MessageListParams(previousResultSize: 0, nextResultSize: 7))
        #expect(newerOnly.result.api == Array(all[0..<7]))
        #expect(!newerOnly.collection.hasPrevious)
        #expect(newerOnly.collection.hasNext)
    }

    @Test func senderUserIdsListOnlyThoseSendersMessages() async throws {
        let fixture = try await ClientFixture()
        let opened = try await fixture.open("general", params: MessageListParams(senderUserIds: ["alan", "grace"]))
        let server = try await fixture.server.records(
            .messages(channelId: "general", senderIds: ["alan", "grace"], newestFirst: false))
        #expect(opened.result.api == Array(server.suffix(20)))
        #expect(opened.collection.succeededMessages.allSatisfy { ["alan", "grace"].contains($0.userId) })
        #expect(opened.collection.hasPrevious == (server.count > 20))

        _ = try await fixture.sendAsOther("from tim", as: "tim")
        let fromGrace = try await fixture.sendAsOther("from grace", as: "grace")
        let added = try await opened.recorder.next { $0.isAdded(source: .event) }
        #expect(added.messages == [fromGrace])
        #expect(!opened.collection.succeededMessages.contains { $0.userId == "tim" })
    }
}
