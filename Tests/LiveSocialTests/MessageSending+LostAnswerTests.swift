import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// Sends whose answer was lost, and echoes of one's own messages that arrive before the answer:
/// the message is never stored or shown twice.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MessageSendingLostAnswerTests {
    // MARK: Lost answers

    @Test func aLostAnswerIsNotStoredTwiceWhenSentAgainOnReconnect() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        let live = fixture.client.messages.messages(channelId: "general")
        let (liveLog, token) = live.record()
        _ = try await live.next(in: liveLog) { $0.dataStatus == .fresh }
        try await waitForConnection(fixture.client, connected: true)

        fixture.server.dropNextResponses(1)
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("answer lost", to: "general")
        }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        // The server stored it; its real-time echo shows it as sent.
        let (echoed, _) = try await next(.updated, .succeeded, of: requestId, in: recorder)
        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [echoed.id])

        // The connection comes back: what was pending is sent again, and the server answers with
        // the message it already has. A message sent afterwards returns only once it went.
        fixture.server.disconnect()
        try await waitForConnection(fixture.client, connected: false)
        fixture.server.reconnect()
        try await waitForConnection(fixture.client, connected: true)
        _ = try await fixture.client.messages.send("after the lost answer", to: "general")
        try await fixture.settle()

        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [echoed.id])
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated succeeded"])
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.map(\.id) == [echoed.id])
        #expect(collection.pendingMessages.isEmpty)
        #expect(collection.failedMessages.isEmpty)
        #expect(try await cachedCopies(of: requestId, in: fixture.client).map(\.id) == [echoed.id])
        #expect(liveLog.all.allSatisfy { $0.records.filter { $0.clientRequestId == requestId }.count <= 1 })
        #expect(live.allObjects().filter { $0.clientRequestId == requestId }.map(\.id) == [echoed.id])
        _ = token
    }

    @Test func aLostAnswerWithoutAnEchoIsConfirmedByResendingPendingMessages() async throws {
        let fixture = try await ClientFixture(realtime: false)
        let (collection, recorder, _) = try await openCollection(fixture.client)
        fixture.server.dropNextResponses(1)
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("answer lost, no echo", to: "general")
        }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        try await fixture.settle()
        let stored = try await serverCopies(of: requestId, on: fixture.server)
        #expect(stored.count == 1)
        #expect(collection.pendingMessages.map(\.clientRequestId) == [requestId])
        #expect(try await cachedCopies(of: requestId, in: fixture.client).map(\.id) == [requestId])

        fixture.client.messages.resendPendingMessages()
        let (sent, _) = try await next(.updated, .succeeded, of: requestId, in: recorder)
        try await fixture.settle()
        #expect(sent.id == stored.first?.id)
        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [sent.id])
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated succeeded"])
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.count == 1)
        #expect(collection.pendingMessages.isEmpty)
        #expect(try await cachedCopies(of: requestId, in: fixture.client).map(\.id) == [sent.id])
    }

    @Test func withAutoResendOffALostAnswerFailsAndItsResendStoresNothingNew() async throws {
        let fixture = try await ClientFixture(realtime: false)
        fixture.client.autoResendMessages = false
        let (collection, recorder, _) = try await openCollection(fixture.client)
        fixture.server.dropNextResponses(1)
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("lost, then resent", to: "general")
        }
        let (failed, _) = try await next(.updated, .failed, in: recorder)
        let requestId = failed.clientRequestId
        let stored = try await serverCopies(of: requestId, on: fixture.server)
        #expect(stored.count == 1)
        #expect(collection.failedMessages.map(\.clientRequestId) == [requestId])

        let resent = try await fixture.client.messages.resend(failed)
        try await waitUntil(recorder) { steps(of: requestId, in: recorder).contains("updated succeeded") }
        try await fixture.settle()
        #expect(resent.id == stored.first?.id)
        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [resent.id])
        #expect(steps(of: requestId, in: recorder)
            == ["added pending", "updated failed", "updated pending", "updated succeeded"])
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.count == 1)
        #expect(collection.failedMessages.isEmpty)
        #expect(try await cachedCopies(of: requestId, in: fixture.client).map(\.id) == [resent.id])
    }

    @Test func withAutoResendOffALostAnswerWhoseEchoArrivedLeavesNoFailedCopyInTheCache() async throws {
        let fixture = try await ClientFixture()
        fixture.client.autoResendMessages = false
        let (collection, recorder, _) = try await openCollection(fixture.client)
        try await waitForConnection(fixture.client, connected: true)
        fixture.server.setLatency(.seconds(1))
        fixture.server.dropNextResponses(1)
        let task = Task { try await fixture.client.messages.send("lost, but echoed", to: "general") }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        await fixture.clock.waitForSleepers(1)

        // While the request waits, the server stores the message and its echo reaches the client;
        // then the request's answer is lost.
        let stored = try #require(try await fixture.server.perform(
            .sendText("lost, but echoed", channelId: "general", clientRequestId: requestId), as: "ada").first(Message.self))
        _ = try await next(.updated, .succeeded, of: requestId, in: recorder)
        fixture.clock.advance(by: .seconds(1))
        let outcome = await task.result
        #expect(throws: SocialAPIError.offline) { try outcome.get() }
        fixture.server.setLatency(.zero)
        try await fixture.settle()
        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [stored.id])

        // The server has it and the client saw it: one copy, the server's, and nothing failed.
        let cached = try await cachedCopies(of: requestId, in: fixture.client)
        #expect(cached.map(\.id) == [stored.id])
        #expect(!cached.contains { $0.isPending })
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.map(\.id) == [stored.id])
        #expect(collection.failedMessages.isEmpty)
        let reopened = fixture.client.createMessageCollection(channelId: "general")
        _ = await reopened.start()
        let copies = (reopened.succeededMessages + reopened.pendingMessages + reopened.failedMessages)
            .filter { $0.clientRequestId == requestId }
        #expect(copies.map(\.sendingStatus) == [.succeeded])
        reopened.dispose()
    }

    // MARK: The echo of one's own message

    @Test func theEchoOfOwnMessageArrivingBeforeTheAnswerIsNeverADuplicate() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        let live = fixture.client.messages.messages(channelId: "general")
        let (liveLog, token) = live.record()
        _ = try await live.next(in: liveLog) { $0.dataStatus == .fresh }
        try await waitForConnection(fixture.client, connected: true)

        fixture.server.setLatency(.seconds(1))
        let task = Task { try await fixture.client.messages.send("echo first", to: "general") }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        await fixture.clock.waitForSleepers(1)

        // While the request waits, the server stores the message under the same client request
        // id and its real-time echo reaches the client first.
        let stored = try await fixture.server.perform(
            .sendText("echo first", channelId: "general", clientRequestId: requestId), as: "ada")
        let serverCopy = try #require(stored.first(Message.self))
        let (echoed, echoContext) = try await next(.updated, .succeeded, of: requestId, in: recorder)
        #expect(echoContext.source == .event)
        #expect(echoed.id == serverCopy.id)
        #expect(collection.pendingMessages.isEmpty)

        // Then the answer: the same message.
        fixture.clock.advance(by: .seconds(1))
        fixture.server.setLatency(.zero)
        let sent = try await task.value
        try await fixture.settle()
        #expect(sent.id == serverCopy.id)
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated succeeded"])
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.map(\.id) == [sent.id])
        #expect(collection.pendingMessages.isEmpty)
        #expect(collection.failedMessages.isEmpty)
        #expect(try await cachedCopies(of: requestId, in: fixture.client).map(\.id) == [sent.id])
        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [sent.id])
        #expect(liveLog.all.allSatisfy { $0.records.filter { $0.clientRequestId == requestId }.count <= 1 })
        #expect(live.allObjects().filter { $0.clientRequestId == requestId }.map(\.id) == [sent.id])
        _ = token
    }
}
