import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// Sending the user's messages, Sendbird style: pending, then succeeded or failed, and resending
/// a failed one. Offline sending, lost answers, canceling and restarts are in the
/// `MessageSending+…Tests.swift` files beside this one; their helpers in `Support/MessageSendingHelpers.swift`.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MessageSendingTests {
    // MARK: Pending → succeeded

    @Test func aSentMessageIsAddedPendingThenUpdatedToSucceededAndStoredOnce() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        let sent = try await fixture.client.messages.send("hello there", to: "general")
        let requestId = sent.clientRequestId
        try await waitUntil(recorder) { steps(of: requestId, in: recorder).contains("updated succeeded") }

        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated succeeded"])
        let added = try #require(recorder.log.all.first { event in
            if case .added = event { event.messages.contains { $0.clientRequestId == requestId } } else { false }
        })
        #expect(added.context == MessageContext(sendingStatus: .pending, source: .local))
        let pending = try #require(added.messages.first { $0.clientRequestId == requestId })
        #expect(pending.id == requestId)
        #expect(pending.text == "hello there")
        #expect(pending.sendingStatus == .pending)

        #expect(sent.id != requestId)
        #expect(sent.sendingStatus == .succeeded)
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.map(\.id) == [sent.id])
        #expect(collection.succeededMessages.last?.id == sent.id)
        #expect(collection.pendingMessages.isEmpty)
        #expect(collection.failedMessages.isEmpty)

        try await fixture.settle()
        let cached = try await cachedCopies(of: requestId, in: fixture.client)
        #expect(cached.map(\.id) == [sent.id])
        #expect(cached.first?.syncState == .synced)
        #expect(try await cachedCount(id: requestId, in: fixture.client) == 0)
        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [sent.id])
    }

    // MARK: Rejection, resend

    @Test func aRejectedMessageFailsAndIsResentOnceTheRuleIsGone() async throws {
        let (fixture, collection, recorder) = try await openChatRejectingSpam()
        let (failed, failedContext) = try await sendRejected("buy spam", from: fixture.client, in: recorder)
        let requestId = failed.clientRequestId
        #expect(failedContext.source == .local)
        #expect(failed.sendingStatus == .failed)
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated failed"])
        #expect(collection.failedMessages.map(\.clientRequestId) == [requestId])
        #expect(collection.pendingMessages.isEmpty)
        #expect(!collection.succeededMessages.contains { $0.clientRequestId == requestId })

        try await fixture.settle()
        let cachedFailed = try await cachedCopies(of: requestId, in: fixture.client)
        #expect(cachedFailed.map(\.id) == [requestId])
        #expect(cachedFailed.first?.syncState == .error)
        #expect(cachedFailed.first?.sendingStatus == .failed)
        #expect(try await serverCopies(of: requestId, on: fixture.server).isEmpty)

        fixture.server.resetFailures()
        let resent = try await fixture.client.messages.resend(failed)
        try await waitUntil(recorder) { steps(of: requestId, in: recorder).count >= 4 }
        #expect(steps(of: requestId, in: recorder)
            == ["added pending", "updated failed", "updated pending", "updated succeeded"])
        #expect(resent.clientRequestId == requestId)
        #expect(resent.sendingStatus == .succeeded)
        #expect(collection.failedMessages.isEmpty)
        #expect(collection.pendingMessages.isEmpty)
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.map(\.id) == [resent.id])

        try await fixture.settle()
        #expect(try await cachedCopies(of: requestId, in: fixture.client).map(\.id) == [resent.id])
        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [resent.id])

        // Only a failed message can be resent: neither the server's copy nor the stale failed value.
        await #expect(throws: ChatError.notFailed(clientRequestId: requestId)) {
            try await fixture.client.messages.resend(resent)
        }
        await #expect(throws: ChatError.notFailed(clientRequestId: requestId)) {
            try await fixture.client.messages.resend(failed)
        }
        try await fixture.settle()
        #expect(steps(of: requestId, in: recorder).count == 4)
        #expect(try await serverCopies(of: requestId, on: fixture.server).count == 1)
    }

    @Test func aPendingMessageCannotBeResent() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        try await goOffline(fixture)
        let task = Task { try await fixture.client.messages.send("still waiting", to: "general") }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        await #expect(throws: ChatError.notFailed(clientRequestId: pending.clientRequestId)) {
            try await fixture.client.messages.resend(pending)
        }
        #expect(collection.pendingMessages.map(\.clientRequestId) == [pending.clientRequestId])
        // Leave nothing waiting behind.
        #expect(await fixture.client.messages.cancel(pending))
        _ = await task.result
    }
}
