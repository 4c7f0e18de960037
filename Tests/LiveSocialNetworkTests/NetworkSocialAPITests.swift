import Foundation
import LiveRepository
import LiveSocial
import LiveSocialWire
@testable import LiveSocialNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The requests of the `SocialAPI` methods and how their answers and failures come back.
@Suite struct NetworkSocialAPITests {
    static let channel = Channel(id: "general", displayName: "General", type: .community, lastActivityAt: 1, createdAt: 1, updatedAt: 1)
    static let message = Message(id: "m1", clientRequestId: "r1", channelId: "general", userId: "alan", text: "hi", createdAt: 2, updatedAt: 2)

    @Test @MainActor func aFetchReadsTheRecordOrNil() async throws {
        let harness = Harness { request in
            // A server that answers every id but "secret" with the channel, whatever the kind asked.
            request.url.path.hasSuffix("/secret") ? .json(RecordBody(record: nil)) : .json(RecordBody(record: .channel(Self.channel)))
        }
        #expect(try await harness.api.fetch(Channel.self, id: "general") == Self.channel)
        #expect(harness.http.requests.last?.url.path == "/v1/records/channel/general")
        #expect(try await harness.api.fetch(Channel.self, id: "secret") == nil)
        await #expect(throws: SocialAPIError.serverFailure("the server answered a message fetch with a channel")) {
            _ = try await harness.api.fetch(Message.self, id: "general")
        }
        await harness.api.signOut()
    }

    @Test @MainActor func aPageSendsTheQueryKindAndReadsTypedRecords() async throws {
        let harness = Harness { _ in .json(PageBody(records: [.channel(Self.channel)], nextCursor: "c2")) }
        let page = try await harness.api.fetchPage(.channels(types: [.live]), cursor: "c1", limit: 25)
        #expect(page.records == [Self.channel] && page.nextCursor == "c2")
        let request = try #require(harness.http.requests(to: WireRoute.pages).first)
        #expect(request.method == "POST")
        let sent = try SocialWire.decode(PageRequest.self, from: request.body ?? Data())
        #expect(sent == PageRequest(query: .channels(types: [.live], includeDeleted: false), cursor: "c1", limit: 25))
        await #expect(throws: SocialAPIError.self) {
            _ = try await harness.api.fetchPage(.messages(channelId: "general"), cursor: nil, limit: 5)
        }
        await harness.api.signOut()
    }

    @Test @MainActor func messagesChangesAndTheSequenceUseTheirRoutes() async throws {
        let log = ChangeLog(records: [.message(Self.message)], deleted: [SocialRecordKey(.reaction, "x")], latestSequence: 9, hasMore: true)
        let harness = Harness { request in
            switch request.url.path {
            case WireRoute.messages: .json(MessagesBody(messages: [Self.message]))
            case WireRoute.changes: .json(Wire(log))
            default: .json(SequenceBody(latestSequence: 12))
            }
        }
        #expect(try await harness.api.fetchMessages(.messages(channelId: "general"), after: .before(5, inclusive: true), limit: 3) == [Self.message])
        #expect(try await harness.api.changes(since: 4, limit: 100, scope: .messages(channelId: "general")) == log)
        #expect(try await harness.api.latestSequence() == 12)
        let changes = try #require(harness.http.requests(to: WireRoute.changes).first)
        #expect(changes.url.query == "since=4&limit=100&scope=messages&channelId=general")
        let messages = try #require(harness.http.requests(to: WireRoute.messages).first)
        #expect(try SocialWire.decode(MessagesRequest.self, from: messages.body ?? Data()).after == .before(5, inclusive: true))
        await harness.api.signOut()
    }

    @Test @MainActor func aSentMessageIsKeyedByItsClientRequestId() async throws {
        let result = SocialMutationResult(records: [.message(Self.message)], deleted: [], sequence: 3)
        let harness = Harness { _ in .json(Wire(result)) }
        #expect(try await harness.api.perform(.sendText("hi", channelId: "general", clientRequestId: "r1")) == result)
        let request = try #require(harness.http.requests(to: WireRoute.mutations).first)
        #expect(request.headers["Idempotency-Key"] == "r1")
        #expect(try SocialWire.decode(MutationRequest.self, from: request.body ?? Data()).mutation == .sendText("hi", channelId: "general", clientRequestId: "r1"))
        await harness.api.signOut()
    }

    @Test @MainActor func aLostAnswerIsAskedForAgainWithTheSameKey() async throws {
        let result = SocialMutationResult(records: [], deleted: [], sequence: 4)
        let calls = Counter()
        let harness = Harness { request in
            guard request.url.path == WireRoute.mutations else { return HTTPResponse(status: 204) }
            if calls.next() == 1 { throw URLError(.networkConnectionLost) }
            return .json(Wire(result))
        }
        #expect(try await harness.api.perform(.follow(userId: "ada")) == result)
        let keys = harness.http.requests(to: WireRoute.mutations).map { $0.headers["Idempotency-Key"] }
        #expect(keys.count == 2)
        #expect(keys[0] != nil && keys[0] == keys[1])
        #expect(UUID(uuidString: keys[0] ?? "") != nil)

        // Another call makes another key.
        _ = try await harness.api.perform(.follow(userId: "bob"))
        #expect(harness.http.requests(to: WireRoute.mutations).last?.headers["Idempotency-Key"] != keys[0])
        await harness.api.signOut()
    }

    @Test @MainActor func aConnectionLostTwiceIsOffline() async throws {
        let harness = Harness { request in
            guard request.url.path == WireRoute.mutations else { return HTTPResponse(status: 204) }
            throw URLError(.networkConnectionLost)
        }
        await #expect(throws: SocialAPIError.offline) { try await harness.api.perform(.joinChannel(id: "general")) }
        #expect(harness.http.requests(to: WireRoute.mutations).count == 2)
        await harness.api.signOut()
    }

    @Test @MainActor func aMissingTargetIsNotFoundByItsKey() async throws {
        let harness = Harness { request in
            request.url.path == WireRoute.mutations ? .error(.notFound, "no such message") : HTTPResponse(status: 204)
        }
        await #expect(throws: SocialAPIError.notFound(SocialRecordKey(.message, "m404"))) {
            try await harness.api.perform(.editMessage(id: "m404", text: "x"))
        }
        await harness.api.signOut()
    }

    @Test @MainActor func aTimeoutIsOfflineAndTheRequestCarriesTheConfiguredTimeout() async throws {
        let harness = Harness { request in
            guard request.url.path == WireRoute.sequence else { return HTTPResponse(status: 204) }
            throw URLError(.timedOut)
        }
        await #expect(throws: SocialAPIError.offline) { try await harness.api.latestSequence() }
        #expect(harness.http.requests(to: WireRoute.sequence).map(\.timeout) == [10])
        await harness.api.signOut()
    }
}
