import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// Canceling pending messages and removing failed ones.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MessageSendingCancelTests {
    // MARK: Cancel

    @Test func aPendingMessageQueuedOfflineIsCanceledAndNeverSent() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        try await goOffline(fixture)
        let task = Task { try await fixture.client.messages.send("never mind", to: "general") }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        #expect(collection.pendingMessages.map(\.clientRequestId) == [requestId])
        // Let the send reach the queue (see aMessageCanBeCanceledAsSoonAsItShowsAsPending).
        try await fixture.settle()

        let canceledNow = await fixture.client.messages.cancel(pending)
        #expect(canceledNow)
        guard canceledNow else {
            fixture.server.reconnect()
            _ = await task.result
            return
        }
        let (canceled, context) = try await next(.updated, .canceled, of: requestId, in: recorder)
        #expect(context == MessageContext(sendingStatus: .canceled, source: .local))
        #expect(canceled.text == "never mind")
        // The send did not succeed: it gave up with the offline error (see
        // aSendWhileTheClientKnowsItIsOfflineThrowsOfflineAndStaysPending), or the cancel ended it.
        let outcome = await task.result
        #expect(throws: (any Error).self) { try outcome.get() }
        try await fixture.settle()
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated canceled"])
        #expect(collection.pendingMessages.isEmpty)
        #expect(collection.failedMessages.isEmpty)
        #expect(!collection.succeededMessages.contains { $0.clientRequestId == requestId })
        #expect(try await cachedCopies(of: requestId, in: fixture.client).isEmpty)

        // Back online: it is never sent, and it cannot be canceled twice.
        fixture.server.reconnect()
        try await waitForConnection(fixture.client, connected: true)
        _ = try await fixture.client.messages.send("after the cancel", to: "general")
        try await fixture.settle()
        #expect(try await serverCopies(of: requestId, on: fixture.server).isEmpty)
        #expect(try await cachedCopies(of: requestId, in: fixture.client).isEmpty)
        #expect(await fixture.client.messages.cancel(pending) == false)
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated canceled"])
    }

    @Test func aMessageQueuedBehindOneInFlightIsCanceledAndItsSendThrowsCanceled() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        fixture.server.setLatency(.seconds(1))
        let firstTask = Task { try await fixture.client.messages.send("ahead", to: "general") }
        let (first, _) = try await next(.added, .pending, in: recorder)
        await fixture.clock.waitForSleepers(1)
        let secondTask = Task { try await fixture.client.messages.send("behind, then canceled", to: "general") }
        let (second, _) = try await next(.added, .pending, of: nil, in: recorder)
        let requestId = second.clientRequestId
        try await fixture.settle()
        #expect(collection.pendingMessages.map(\.clientRequestId) == [first.clientRequestId, requestId])

        #expect(await fixture.client.messages.cancel(second))
        let (_, context) = try await next(.updated, .canceled, of: requestId, in: recorder)
        #expect(context == MessageContext(sendingStatus: .canceled, source: .local))
        let secondOutcome = await secondTask.result
        #expect(throws: ChatError.canceled(clientRequestId: requestId)) { try secondOutcome.get() }

        // The one ahead goes; the canceled one never does.
        fixture.clock.advance(by: .seconds(1))
        fixture.server.setLatency(.zero)
        let sentFirst = try await firstTask.value
        let after = try await fixture.client.messages.send("after the cancel", to: "general")
        try await fixture.settle()
        #expect(try await serverCopies(of: requestId, on: fixture.server).isEmpty)
        #expect(try await cachedCopies(of: requestId, in: fixture.client).isEmpty)
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated canceled"])
        #expect(collection.pendingMessages.isEmpty)
        let onServer = try await fixture.server.records(.messages(channelId: "general", newestFirst: false))
            .filter { $0.userId == "ada" }.suffix(2)
        #expect(onServer.map(\.id) == [sentFirst.id, after.id])
    }

    @Test func aMessageCanBeCanceledAsSoonAsItShowsAsPending() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        fixture.server.setLatency(.seconds(1))
        let firstTask = Task { try await fixture.client.messages.send("ahead", to: "general") }
        _ = try await next(.added, .pending, in: recorder)
        await fixture.clock.waitForSleepers(1)
        let task = Task { try await fixture.client.messages.send("changed my mind at once", to: "general") }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId

        // Shown as pending, queued behind the message in flight: the user taps cancel right away.
        let canceledNow = await fixture.client.messages.cancel(pending)
        #expect(canceledNow, "cancel(_:) returned false for a message the collection shows as pending")
        try await fixture.settle()
        if canceledNow {
            #expect(steps(of: requestId, in: recorder) == ["added pending", "updated canceled"])
            #expect(collection.pendingMessages.map(\.clientRequestId) != [requestId])
            #expect(try await cachedCopies(of: requestId, in: fixture.client).isEmpty)
            let outcome = await task.result
            #expect(throws: ChatError.canceled(clientRequestId: requestId)) { try outcome.get() }
        }
        // Leave nothing waiting behind.
        fixture.clock.advance(by: .seconds(1))
        fixture.server.setLatency(.zero)
        _ = await firstTask.result
        _ = await task.result
    }

    @Test func aMessageInFlightCannotBeCanceled() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        fixture.server.setLatency(.seconds(1))
        let task = Task { try await fixture.client.messages.send("on its way", to: "general") }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        await fixture.clock.waitForSleepers(1)

        #expect(await fixture.client.messages.cancel(pending) == false)
        fixture.clock.advance(by: .seconds(1))
        fixture.server.setLatency(.zero)
        let sent = try await task.value
        try await waitUntil(recorder) { steps(of: requestId, in: recorder).contains("updated succeeded") }
        try await fixture.settle()
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated succeeded"])
        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [sent.id])
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.map(\.id) == [sent.id])
        #expect(try await cachedCopies(of: requestId, in: fixture.client).map(\.id) == [sent.id])
    }

    @Test func sentAndFailedMessagesCannotBeCanceled() async throws {
        let (fixture, collection, recorder) = try await openChatRejectingSpam()
        let sent = try await fixture.client.messages.send("already sent", to: "general")
        let sentId = sent.clientRequestId
        try await waitUntil(recorder) { steps(of: sentId, in: recorder).contains("updated succeeded") }
        let pendingCopy = try #require(recorder.log.all.lazy.flatMap(\.messages).first { $0.clientRequestId == sentId })

        #expect(await fixture.client.messages.cancel(sent) == false)
        #expect(await fixture.client.messages.cancel(pendingCopy) == false)

        let (failed, _) = try await sendRejected("spam again", from: fixture.client, in: recorder)
        #expect(await fixture.client.messages.cancel(failed) == false)

        try await fixture.settle()
        #expect(steps(of: sentId, in: recorder) == ["added pending", "updated succeeded"])
        #expect(steps(of: failed.clientRequestId, in: recorder) == ["added pending", "updated failed"])
        #expect(collection.succeededMessages.filter { $0.clientRequestId == sentId }.map(\.id) == [sent.id])
        #expect(collection.failedMessages.map(\.clientRequestId) == [failed.clientRequestId])
        #expect(try await cachedCopies(of: sentId, in: fixture.client).map(\.id) == [sent.id])
        #expect(try await cachedCopies(of: failed.clientRequestId, in: fixture.client).map(\.syncState) == [.error])
    }

    @Test func aMessageTheServerStoredDespiteALostAnswerCannotBeCanceled() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        try await waitForConnection(fixture.client, connected: true)
        fixture.server.dropNextResponses(1)
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("stored, answer lost", to: "general")
        }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        let (echoed, _) = try await next(.updated, .succeeded, of: requestId, in: recorder)

        // The server has it (and the collection shows it sent): it is no longer the user's to cancel.
        #expect(await fixture.client.messages.cancel(pending) == false)
        try await fixture.settle()
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated succeeded"])
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.map(\.id) == [echoed.id])
        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [echoed.id])
    }

    // MARK: Removing failed messages

    @Test func removeFailedDeletesOnlyFailedMessages() async throws {
        let (fixture, collection, recorder) = try await openChatRejectingSpam()
        let (failed, _) = try await sendRejected("spam one", from: fixture.client, in: recorder)
        let requestId = failed.clientRequestId

        #expect(try await fixture.client.messages.removeFailed([failed]) == [requestId])
        let (deleted, context) = try await next(.deleted, .failed, of: requestId, in: recorder)
        #expect(context == MessageContext(sendingStatus: .failed, source: .local))
        #expect(deleted.text == "spam one")
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated failed", "deleted failed"])
        #expect(collection.failedMessages.isEmpty)
        try await fixture.settle()
        #expect(try await cachedCopies(of: requestId, in: fixture.client).isEmpty)
        // Removing it again does nothing.
        #expect(try await fixture.client.messages.removeFailed([failed]) == [])

        // A sent message is left alone, also next to a failed one.
        let sent = try await fixture.client.messages.send("a good one", to: "general")
        let (secondFailed, _) = try await sendRejected("spam two", from: fixture.client, in: recorder)
        #expect(try await fixture.client.messages.removeFailed([sent]) == [])
        #expect(try await fixture.client.messages.removeFailed([sent, secondFailed]) == [secondFailed.clientRequestId])
        _ = try await next(.deleted, .failed, of: secondFailed.clientRequestId, in: recorder)
        try await fixture.settle()
        #expect(steps(of: sent.clientRequestId, in: recorder) == ["added pending", "updated succeeded"])
        #expect(collection.succeededMessages.filter { $0.clientRequestId == sent.clientRequestId }.map(\.id) == [sent.id])
        #expect(try await cachedCopies(of: sent.clientRequestId, in: fixture.client).map(\.id) == [sent.id])
        #expect(collection.failedMessages.isEmpty)

        // So is a pending one.
        try await goOffline(fixture)
        let task = Task { try await fixture.client.messages.send("waiting", to: "general") }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        #expect(try await fixture.client.messages.removeFailed([pending]) == [])
        try await fixture.settle()
        #expect(collection.pendingMessages.map(\.clientRequestId) == [pending.clientRequestId])
        #expect(steps(of: pending.clientRequestId, in: recorder) == ["added pending"])
        #expect(try await cachedCopies(of: pending.clientRequestId, in: fixture.client).map(\.syncState) == [.syncing])
        // Leave nothing waiting behind.
        _ = await fixture.client.messages.cancel(pending)
        _ = await task.result
    }
}
