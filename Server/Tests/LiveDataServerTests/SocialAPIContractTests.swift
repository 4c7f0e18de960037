import Foundation
import LiveRepository
import LiveSocial
import Testing

/// One `SocialAPI` contract, run against the embedded server's connection and against the
/// network transport talking to `livedata-server`, so that the two cannot drift.
@Suite("SocialAPI contract")
struct SocialAPIContractTests {
    /// Runs `body` with a fresh backend, and stops it afterwards.
    private func with(_ backend: ContractBackend, _ body: (ContractFixture) async throws -> Void) async throws {
        let fixture = try await backend.open()
        do {
            try await body(fixture)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    @Test(arguments: ContractBackend.allCases)
    func fetchReturnsTheRecordOrNil(_ backend: ContractBackend) async throws {
        try await with(backend) { fixture in
            let api = try await fixture.signIn("alan")
            let ada = try #require(try await api.fetch(User.self, id: "ada"))
            #expect(ada.id == "ada")
            #expect(!ada.displayName.isEmpty)
            #expect(try await api.fetch(User.self, id: "nobody") == nil)
            #expect(try await api.fetch(Channel.self, id: "general")?.id == "general")
        }
    }

    @Test(arguments: ContractBackend.allCases)
    func pagesCoverAListOnceAndRefuseBadCursorsAndLimits(_ backend: ContractBackend) async throws {
        try await with(backend) { fixture in
            let api = try await fixture.signIn("alan")
            let query = SocialQuery<Message>.messages(channelId: "general")
            var ids: [String] = []
            var cursor: String?
            repeat {
                let page = try await api.fetchPage(query, cursor: cursor, limit: 7)
                #expect(page.records.count <= 7)
                ids += page.records.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(ids.count > 20)
            #expect(Set(ids).count == ids.count)
            await #expect(throws: SocialAPIError.self) { try await api.fetchPage(query, cursor: "nonsense", limit: 7) }
            do {
                _ = try await api.fetchPage(query, cursor: nil, limit: 0)
                Issue.record("a zero limit was accepted")
            } catch let error as SocialAPIError {
                guard case .invalidRequest = error else { throw error }
            }
        }
    }

    @Test(arguments: ContractBackend.allCases)
    func messagesAfterAPositionComeInTheQuerysOrder(_ backend: ContractBackend) async throws {
        try await with(backend) { fixture in
            let api = try await fixture.signIn("alan")
            let newestFirst = try await api.fetchMessages(
                .messages(channelId: "general"), after: .before(4e9, inclusive: true), limit: 5)
            #expect(newestFirst.count == 5)
            #expect(newestFirst.map(\.createdAt) == newestFirst.map(\.createdAt).sorted(by: >))
            let oldestFirst = try await api.fetchMessages(
                .messages(channelId: "general", newestFirst: false), after: .after(0, inclusive: true), limit: 5)
            #expect(oldestFirst.map(\.createdAt) == oldestFirst.map(\.createdAt).sorted())
        }
    }

    @Test(arguments: ContractBackend.allCases)
    func aSendIsStoredOnceAsTheSenderAndReachesTheChangeLog(_ backend: ContractBackend) async throws {
        try await with(backend) { fixture in
            let api = try await fixture.signIn("grace")
            let before = try await api.latestSequence()
            let send = SocialMutation.sendText("contract hello", channelId: "general", clientRequestId: "contract-1")
            let first = try #require(try await api.perform(send).first(Message.self))
            #expect(first.userId == "grace")
            #expect(first.text == "contract hello")
            let again = try #require(try await api.perform(send).first(Message.self))
            #expect(again.id == first.id, "a resent client request id is stored once")
            let log = try await api.changes(since: before, limit: 100, scope: .messages(channelId: "general"))
            let messages = log.records.compactMap { record -> Message? in
                if case .message(let message) = record { message } else { nil }
            }
            #expect(messages.filter { $0.clientRequestId == "contract-1" }.count == 1)
            #expect(try await api.latestSequence() > before)
        }
    }

    @Test(arguments: ContractBackend.allCases)
    func aMissingTargetIsNotFound(_ backend: ContractBackend) async throws {
        try await with(backend) { fixture in
            let api = try await fixture.signIn("alan")
            do {
                try await api.perform(.deletePost(id: "no-such-post"))
                Issue.record("deleting a missing post succeeded")
            } catch let error as SocialAPIError {
                #expect(error == .notFound(SocialRecordKey(.post, "no-such-post")))
            }
        }
    }

    @Test(arguments: ContractBackend.allCases)
    func eventsStartConnectedAndCarryAnotherUsersSend(_ backend: ContractBackend) async throws {
        try await with(backend) { fixture in
            let alan = try await fixture.signIn("alan")
            let ada = try await fixture.signIn("ada")
            var events = alan.events().makeAsyncIterator()
            // The network stream may report `disconnected` until its first connection is up.
            var first = await events.next()
            if first == .disconnected { first = await events.next() }
            #expect(first == .connected)
            let sent = try #require(
                try await ada.perform(.sendText("to alan", channelId: "ada-alan", clientRequestId: "contract-2")).first(Message.self))
            while let event = await events.next() {
                guard case .created(.message(let message), let sequence) = event else { continue }
                #expect(message.id == sent.id)
                #expect(message.userId == "ada")
                #expect(sequence > 0)
                return
            }
            Issue.record("the event stream ended before the message's event")
        }
    }
}
