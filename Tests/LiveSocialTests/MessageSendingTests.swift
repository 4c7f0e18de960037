import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// Sending the user's messages, Sendbird style: pending, succeeded, failed, resent, canceled,
/// removed, automatically resent on reconnection and after a restart, never stored or shown twice.
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

    // MARK: Offline, automatic resend

    @Test func aSendThatFindsTheServerOfflineStaysPendingAndIsSentOnceInOrderOnReconnect() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        try await waitForConnection(fixture.client, connected: true)
        #expect(fixture.client.autoResendMessages)

        // The connection drops while the request is on its way.
        fixture.server.setLatency(.seconds(1))
        let firstTask = Task { try await fixture.client.messages.send("first", to: "general") }
        let (first, firstContext) = try await next(.added, .pending, in: recorder)
        #expect(firstContext == MessageContext(sendingStatus: .pending, source: .local))
        await fixture.clock.waitForSleepers(1)
        fixture.server.disconnect()
        fixture.clock.advance(by: .seconds(1))
        let firstOutcome = await firstTask.result
        #expect(throws: SocialAPIError.offline) { try firstOutcome.get() }

        try await fixture.settle()
        #expect(collection.pendingMessages.map(\.clientRequestId) == [first.clientRequestId])
        #expect(collection.failedMessages.isEmpty)
        #expect(steps(of: first.clientRequestId, in: recorder) == ["added pending"])
        let cachedFirst = try await cachedCopies(of: first.clientRequestId, in: fixture.client)
        #expect(cachedFirst.map(\.id) == [first.clientRequestId])
        #expect(cachedFirst.first?.syncState == .syncing)
        #expect(try await serverCopies(of: first.clientRequestId, on: fixture.server).isEmpty)

        // Two more written while offline.
        try await waitForConnection(fixture.client, connected: false)
        let secondTask = Task { try await fixture.client.messages.send("second", to: "general") }
        let (second, _) = try await next(.added, .pending, in: recorder)
        let thirdTask = Task { try await fixture.client.messages.send("third", to: "general") }
        let (third, _) = try await next(.added, .pending, in: recorder)
        let requestIds = [first, second, third].map(\.clientRequestId)
        #expect(collection.pendingMessages.map(\.clientRequestId) == requestIds)
        #expect(collection.pendingMessages.map(\.text) == ["first", "second", "third"])

        fixture.server.setLatency(.zero)
        fixture.server.reconnect()
        try await waitUntil(recorder) {
            requestIds.allSatisfy { steps(of: $0, in: recorder).contains("updated succeeded") }
        }
        _ = await secondTask.result
        _ = await thirdTask.result
        try await fixture.settle()

        for requestId in requestIds {
            #expect(steps(of: requestId, in: recorder) == ["added pending", "updated succeeded"])
            #expect(try await serverCopies(of: requestId, on: fixture.server).count == 1)
            let cached = try await cachedCopies(of: requestId, in: fixture.client)
            #expect(cached.count == 1)
            #expect(cached.first?.syncState == .synced)
            #expect(cached.first?.id != requestId)
        }
        let onServer = try await fixture.server.records(.messages(channelId: "general", newestFirst: false))
            .filter { requestIds.contains($0.clientRequestId) }
        #expect(onServer.map(\.clientRequestId) == requestIds)
        #expect(onServer.map(\.text) == ["first", "second", "third"])
        #expect(collection.succeededMessages.filter { requestIds.contains($0.clientRequestId) }.map(\.id)
            == onServer.map(\.id))
        #expect(collection.pendingMessages.isEmpty)
        #expect(collection.failedMessages.isEmpty)
    }

    @Test func aSendWhileTheClientKnowsItIsOfflineThrowsOfflineAndStaysPending() async throws {
        let fixture = try await ClientFixture()
        let (collection, recorder, _) = try await openCollection(fixture.client)
        try await goOffline(fixture)
        let outcome = SendOutcome()
        let task = Task { await outcome.run { try await fixture.client.messages.send("written offline", to: "general") } }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        try await fixture.settle()

        #expect(collection.pendingMessages.map(\.clientRequestId) == [requestId])
        #expect(try await cachedCopies(of: requestId, in: fixture.client).map(\.syncState) == [.syncing])
        // The send gives up for now with the offline error, as one that found the server offline does.
        // A send that waited for the server instead of throwing offline would hold this wait
        // until the suite's time limit fails the test.
        try await waitForOutcome(outcome)
        if let result = outcome.result {
            #expect(throws: SocialAPIError.offline) { try result.get() }
        }

        fixture.server.reconnect()
        try await waitUntil(recorder) { steps(of: requestId, in: recorder).contains("updated succeeded") }
        await task.value
        try await fixture.settle()
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated succeeded"])
        #expect(try await serverCopies(of: requestId, on: fixture.server).count == 1)
        #expect(collection.pendingMessages.isEmpty)
    }

    @Test func aSendBeforeRealTimeToldTheConnectionStateGoesToTheServer() async throws {
        let server = try EmbeddedServer(location: .inMemory, clock: ManualClock(), epoch: 1_700_000_000)
        try await server.seedDemoData()
        let client = try SocialClient(
            api: ScriptedEventsAPI(base: server.connection(userId: "ada"), stream: .silent), userId: "ada", cache: .inMemory)
        client.startRealtime()
        // No connection event yet: the client does not know it is offline, so it asks the server.
        let sent = try await client.messages.send("before any event", to: "general")
        #expect(sent.sendingStatus == .succeeded)
        #expect(!client.isConnected)
    }

    @Test func aSecondSendWhileTheServerIsUnreachableThrowsOfflineToo() async throws {
        // No real-time connection: the client learns the server is unreachable only from requests.
        let fixture = try await ClientFixture(realtime: false)
        let (collection, recorder, _) = try await openCollection(fixture.client)
        fixture.server.disconnect()
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("first while unreachable", to: "general")
        }
        let outcome = SendOutcome()
        let task = Task { await outcome.run { try await fixture.client.messages.send("second while unreachable", to: "general") } }
        try await waitUntil(recorder) { collection.pendingMessages.count == 2 }
        try await fixture.settle()
        #expect(collection.pendingMessages.map(\.text) == ["first while unreachable", "second while unreachable"])
        // A send that waited for the server instead of throwing offline would hold this wait
        // until the suite's time limit fails the test.
        try await waitForOutcome(outcome)
        if let result = outcome.result {
            #expect(throws: SocialAPIError.offline) { try result.get() }
        }

        // Back: both go, once each, in order.
        fixture.server.reconnect()
        fixture.client.messages.resendPendingMessages()
        await task.value
        try await waitUntil(recorder) { collection.pendingMessages.isEmpty }
        let texts = ["first while unreachable", "second while unreachable"]
        let onServer = try await fixture.server.records(.messages(channelId: "general", newestFirst: false))
            .filter { texts.contains($0.text) }
        #expect(onServer.map(\.text) == texts)
    }

    // MARK: Automatic resend off

    @Test func withAutoResendOffASendThatFindsTheServerOfflineFails() async throws {
        let fixture = try await ClientFixture()
        fixture.client.autoResendMessages = false
        let (collection, recorder, _) = try await openCollection(fixture.client)
        try await waitForConnection(fixture.client, connected: true)

        fixture.server.setLatency(.seconds(1))
        let task = Task { try await fixture.client.messages.send("no retry", to: "general") }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        await fixture.clock.waitForSleepers(1)
        fixture.server.disconnect()
        fixture.clock.advance(by: .seconds(1))
        let outcome = await task.result
        #expect(throws: SocialAPIError.offline) { try outcome.get() }
        let (failed, context) = try await next(.updated, .failed, of: requestId, in: recorder)
        #expect(context.source == .local)
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated failed"])
        #expect(collection.failedMessages.map(\.clientRequestId) == [requestId])
        #expect(collection.pendingMessages.isEmpty)
        try await fixture.settle()
        #expect(try await cachedCopies(of: requestId, in: fixture.client).map(\.syncState) == [.error])

        // The connection coming back sends nothing by itself.
        fixture.server.setLatency(.zero)
        fixture.server.reconnect()
        try await waitForConnection(fixture.client, connected: true)
        let after = try await fixture.client.messages.send("after reconnecting", to: "general")
        try await fixture.settle()
        #expect(try await serverCopies(of: requestId, on: fixture.server).isEmpty)
        #expect(try await serverCopies(of: after.clientRequestId, on: fixture.server).count == 1)
        #expect(collection.failedMessages.map(\.clientRequestId) == [requestId])

        // The user resends it.
        let resent = try await fixture.client.messages.resend(failed)
        try await waitUntil(recorder) { steps(of: requestId, in: recorder).contains("updated succeeded") }
        #expect(steps(of: requestId, in: recorder)
            == ["added pending", "updated failed", "updated pending", "updated succeeded"])
        #expect(try await serverCopies(of: requestId, on: fixture.server).map(\.id) == [resent.id])
        #expect(collection.failedMessages.isEmpty)
    }

    @Test func withAutoResendOffASendWhileTheClientKnowsItIsOfflineFails() async throws {
        let fixture = try await ClientFixture()
        fixture.client.autoResendMessages = false
        let (collection, recorder, _) = try await openCollection(fixture.client)
        try await goOffline(fixture)
        let outcome = SendOutcome()
        let task = Task { await outcome.run { try await fixture.client.messages.send("offline, no retry", to: "general") } }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        try await fixture.settle()

        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated failed"])
        #expect(collection.failedMessages.map(\.clientRequestId) == [requestId])
        #expect(collection.pendingMessages.isEmpty)
        #expect(try await cachedCopies(of: requestId, in: fixture.client).map(\.syncState) == [.error])
        #expect(outcome.result != nil, "send(_:to:) is still waiting instead of failing")

        // Not stuck as pending after the connection comes back either.
        fixture.server.reconnect()
        try await waitForConnection(fixture.client, connected: true)
        try await fixture.settle()
        #expect(collection.pendingMessages.isEmpty)
        #expect(try await serverCopies(of: requestId, on: fixture.server).isEmpty)

        // Leave nothing waiting behind.
        _ = await fixture.client.messages.cancel(pending)
        await task.value
    }

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

    // MARK: Restart

    @Test func aPendingMessageSurvivesARestartAndIsSentOnceWhenConnected() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server

        // The first run: written while the server is unreachable, then the app quits.
        let (firstCollection, firstRecorder, _) = try await openCollection(fixture.client)
        server.disconnect()
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("written before quitting", to: "general")
        }
        let (pending, _) = try await next(.added, .pending, in: firstRecorder)
        let requestId = pending.clientRequestId
        try await fixture.settle()
        #expect(firstCollection.pendingMessages.map(\.clientRequestId) == [requestId])
        firstCollection.dispose()
        fixture.client.stopRealtime()
        await fixture.client.store.close()

        // The second run, still offline.
        let stamps = Stamps()
        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                      now: { stamps.next() })
        let cached = try await cachedCopies(of: requestId, in: client)
        #expect(cached.map(\.id) == [requestId])
        #expect(cached.first?.syncState == .syncing)
        let (collection, recorder, start) = try await openCollection(client)
        #expect((start.apiError as? SocialAPIError) == .offline)
        #expect(collection.pendingMessages.map(\.clientRequestId) == [requestId])
        #expect(collection.pendingMessages.first?.text == "written before quitting")

        // Connected: the collection's first request and the resend go out together.
        server.setLatency(.seconds(1))
        client.startRealtime()
        server.reconnect()
        await fixture.clock.waitForSleepers(2)
        fixture.clock.advance(by: .seconds(1))
        let (sent, _) = try await next(.updated, .succeeded, of: requestId, in: recorder)
        // Then the collection's pages.
        await fixture.clock.waitForSleepers(3)
        fixture.clock.advance(by: .seconds(1))
        server.setLatency(.zero)
        try await settle(client, rounds: 8)

        #expect(steps(of: requestId, in: recorder) == ["updated succeeded"])
        #expect(try await serverCopies(of: requestId, on: server).map(\.id) == [sent.id])
        #expect(collection.succeededMessages.filter { $0.clientRequestId == requestId }.map(\.id) == [sent.id])
        #expect(collection.pendingMessages.isEmpty)
        #expect(collection.failedMessages.isEmpty)
        #expect(try await cachedCopies(of: requestId, in: client).map(\.id) == [sent.id])
        collection.dispose()
        client.stopRealtime()
        await client.store.close()
    }

    @Test func pendingMessagesOfAnEarlierRunAreSentBeforeNewOnes() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server
        server.disconnect()
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("older one", to: "general")
        }
        // The queue waits for the connection now: this send is stored as pending, then waits
        // (see aSecondSendWhileTheServerIsUnreachableThrowsOfflineToo).
        Task { _ = try? await fixture.client.messages.send("older two", to: "general") }
        try await fixture.settle()
        let stored = try await fixture.client.store.read { connection in
            try Message.read(CacheQuery<Message>([.equals("syncState", .text(SyncState.syncing.rawValue))],
                                                 orderBy: "createdAt"), from: connection)
        }
        #expect(stored.map(\.text) == ["older one", "older two"])
        await fixture.client.store.close()

        let stamps = Stamps()
        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                      now: { stamps.next() })
        client.startRealtime()
        let newer = Task { try await client.messages.send("newer", to: "general") }
        // Let it reach the queue before anything else is written
        // (see twoMessagesWrittenOneAfterTheOtherOnAFreshClientAreSentInThatOrder).
        try await settle(client)
        server.reconnect()
        try await waitForConnection(client, connected: true)
        // Messages go one at a time in order: once this one is sent, everything before it went.
        let barrier = try await client.messages.send("barrier", to: "general")
        _ = await newer.result

        let texts = ["older one", "older two", "newer", "barrier"]
        let onServer = try await server.records(.messages(channelId: "general", newestFirst: false))
            .filter { $0.userId == "ada" && texts.contains($0.text) }
        #expect(onServer.map(\.text) == texts)
        #expect(onServer.last?.id == barrier.id)
        let pendingLeft = try await client.store.read { connection in
            try Message.read(CacheQuery<Message>([.equals("syncState", .text(SyncState.syncing.rawValue))],
                                                 orderBy: "createdAt"), from: connection)
        }
        #expect(pendingLeft.isEmpty)
        client.stopRealtime()
        await client.store.close()
    }

    @Test func twoMessagesWrittenOneAfterTheOtherOnAFreshClientAreSentInThatOrder() async throws {
        let fixture = try await ClientFixture()
        try await waitForConnection(fixture.client, connected: true)
        let first = Task { try await fixture.client.messages.send("written first", to: "general") }
        let second = Task { try await fixture.client.messages.send("written second", to: "general") }
        let (firstSent, secondSent) = (try await first.value, try await second.value)
        let texts = ["written first", "written second"]
        let onServer = try await fixture.server.records(.messages(channelId: "general", newestFirst: false))
            .filter { texts.contains($0.text) }
        #expect(onServer.map(\.text) == texts)
        #expect(onServer.map(\.id) == [firstSent.id, secondSent.id])
    }

    @Test func messagesWrittenInARowWhileTheCacheIsReadAreStoredPendingInThatOrder() async throws {
        // No connection yet, so the outbox reads the earlier run's pending messages on the first
        // send: all three sends wait for that read, and the runtime resumes such waiters in no
        // promised order (last first, in practice).
        let fixture = try await ClientFixture(realtime: false)
        let (collection, recorder, _) = try await openCollection(fixture.client)
        let texts = ["one", "two", "three"]
        let sends = texts.map { text in Task { try await fixture.client.messages.send(text, to: "general") } }
        for send in sends { _ = try await send.value }

        // Each pending copy is written, so shown, in the order written: a list that shows what
        // is new (a log, a terminal) shows them in that order.
        let addedPending = recorder.log.all.compactMap { event -> [String]? in
            guard case .added = event, event.context?.sendingStatus == .pending else { return nil }
            return event.messages.map(\.text)
        }.flatMap { $0 }
        #expect(addedPending == texts)
        let onServer = try await fixture.server.records(.messages(channelId: "general", newestFirst: false))
            .filter { texts.contains($0.text) }
        #expect(onServer.map(\.text) == texts)
        collection.dispose()
    }

    @Test func messagesSentInARowKeepTheirOrderWhenTheClockGoesBack() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false)
        let server = fixture.server
        let clock = FallingClock()
        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                      now: { clock.next() })
        let (collection, _, _) = try await openCollection(client)
        server.disconnect()
        let texts = ["one", "two", "three"]
        for text in texts {
            await #expect(throws: SocialAPIError.offline) { try await client.messages.send(text, to: "general") }
        }
        // Shown pending in the order sent, although each was written at an earlier clock time.
        #expect(collection.pendingMessages.map(\.text) == texts)
        collection.dispose()
        await client.store.close()

        // The next run sends them in that order too.
        let next = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                    now: { clock.next() })
        server.reconnect()
        let barrier = try await next.messages.send("barrier", to: "general")
        let onServer = try await server.records(.messages(channelId: "general", newestFirst: false))
            .filter { $0.userId == "ada" && (texts + ["barrier"]).contains($0.text) }
        #expect(onServer.map(\.text) == texts + ["barrier"])
        #expect(onServer.last?.id == barrier.id)
        await next.store.close()
    }

    @Test func aRestartAfterALostAnswerNeverShowsTheMessageTwice() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("cache.sqlite")
        let fixture = try await ClientFixture(realtime: false, cache: .file(url))
        let server = fixture.server

        // The first run: the server stores the message but its answer is lost; the app quits.
        let (firstCollection, firstRecorder, _) = try await openCollection(fixture.client)
        server.dropNextResponses(1)
        await #expect(throws: SocialAPIError.offline) {
            try await fixture.client.messages.send("stored before quitting", to: "general")
        }
        let (pending, _) = try await next(.added, .pending, in: firstRecorder)
        let requestId = pending.clientRequestId
        try await fixture.settle()
        let stored = try await serverCopies(of: requestId, on: server)
        #expect(stored.count == 1)
        firstCollection.dispose()
        await fixture.client.store.close()

        // The second run opens the chat: the server's page has the message the cache has as pending.
        let stamps = Stamps()
        let client = try SocialClient(api: server.connection(userId: "ada"), userId: "ada", cache: .file(url),
                                      now: { stamps.next() })
        let (collection, recorder, start) = try await openCollection(client)
        #expect(start.apiError == nil)
        let shown = (collection.succeededMessages + collection.pendingMessages + collection.failedMessages)
            .filter { $0.clientRequestId == requestId }
        #expect(shown.count == 1, "shown as \(shown.map(\.sendingStatus))")

        // Connected: the pending copy is sent again and the server answers with what it has.
        client.startRealtime()
        try await waitForConnection(client, connected: true)
        _ = try await client.messages.send("barrier", to: "general")
        try await settle(client)
        #expect(try await serverCopies(of: requestId, on: server).map(\.id) == stored.map(\.id))
        let finallyShown = (collection.succeededMessages + collection.pendingMessages + collection.failedMessages)
            .filter { $0.clientRequestId == requestId }
        #expect(finallyShown.map(\.id) == stored.map(\.id))
        #expect(!steps(of: requestId, in: recorder).contains("added succeeded"))
        #expect(try await cachedCopies(of: requestId, in: client).map(\.id) == stored.map(\.id))
        collection.dispose()
        client.stopRealtime()
        await client.store.close()
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

// MARK: - Helpers

/// A kind of message report a collection makes.
private enum ReportKind: String {
    case added, updated, deleted
}

/// How a send ended, for a send a test does not await.
@MainActor
private final class SendOutcome {
    var result: Result<Message, any Error>?

    func run(_ send: () async throws -> Message) async {
        do { result = .success(try await send()) } catch { result = .failure(error) }
    }
}

/// A collection of `general` (or `channelId`) started, with a recorder as its delegate.
@MainActor
private func openCollection(
    _ client: SocialClient, channelId: String = "general"
) async throws -> (MessageCollection, MessageCollectionRecorder, StartResult) {
    let collection = client.createMessageCollection(channelId: channelId)
    let recorder = MessageCollectionRecorder()
    collection.delegate = recorder
    let start = await collection.start()
    return (collection, recorder, start)
}

/// The kind of a message report, or nil for a channel report.
private func reportKind(of event: MessageCollectionEvent) -> ReportKind? {
    switch event {
    case .added: .added
    case .updated: .updated
    case .deleted: .deleted
    case .channelUpdated, .channelDeleted, .hugeGapDetected: nil
    }
}

/// Every report the recorder heard about the message with `requestId`, as "kind status", in order.
@MainActor
private func steps(of requestId: String, in recorder: MessageCollectionRecorder) -> [String] {
    recorder.log.all.compactMap { event in
        guard let kind = reportKind(of: event), let context = event.context,
              event.messages.contains(where: { $0.clientRequestId == requestId }) else { return nil }
        return "\(kind.rawValue) \(context.sendingStatus.rawValue)"
    }
}

/// Waits for the next report of `kind` with `status` holding the message with `requestId` (any
/// message when nil), and returns that message and the report's context.
@MainActor
private func next(
    _ kind: ReportKind, _ status: SendingStatus, of requestId: String? = nil, in recorder: MessageCollectionRecorder
) async throws -> (Message, MessageContext) {
    let event = try await recorder.next { event in
        guard reportKind(of: event) == kind, event.context?.sendingStatus == status else { return false }
        return requestId.map { id in event.messages.contains { $0.clientRequestId == id } } ?? true
    }
    let message = try #require(event.messages.first { requestId == nil || $0.clientRequestId == requestId })
    return (message, try #require(event.context))
}

/// A client whose server refuses messages containing "spam" (reason "no spam here"), with a
/// started collection of "general" and its recorder.
@MainActor
private func openChatRejectingSpam() async throws -> (ClientFixture, MessageCollection, MessageCollectionRecorder) {
    let fixture = try await ClientFixture()
    fixture.server.rejectMessages(containing: "spam", reason: "no spam here")
    let (collection, recorder, _) = try await openCollection(fixture.client)
    return (fixture, collection, recorder)
}

/// Sends a message the server's "spam" rule rejects, expects the send to throw the rejection,
/// and returns the failed message and its report's context.
@MainActor
private func sendRejected(
    _ text: String, from client: SocialClient, in recorder: MessageCollectionRecorder
) async throws -> (Message, MessageContext) {
    await #expect(throws: SocialAPIError.rejected("no spam here")) {
        try await client.messages.send(text, to: "general")
    }
    return try await next(.updated, .failed, in: recorder)
}

/// Waits for reports until `condition` holds.
@MainActor
private func waitUntil(_ recorder: MessageCollectionRecorder, _ condition: () -> Bool) async throws {
    while !condition() { _ = try await recorder.log.next() }
}

/// Waits until `outcome` holds the send's result.
@MainActor
private func waitForOutcome(_ outcome: SendOutcome) async throws {
    while outcome.result == nil {
        try Task.checkCancellation()
        await Task.yield()
    }
}

/// Waits until the client has applied the connection event that makes `isConnected` equal `connected`.
@MainActor
private func waitForConnection(_ client: SocialClient, connected: Bool) async throws {
    while client.isConnected != connected {
        try Task.checkCancellation()
        await Task.yield()
    }
}

/// Disconnects the server and waits until the client knows it is offline.
@MainActor
private func goOffline(_ fixture: ClientFixture) async throws {
    try await waitForConnection(fixture.client, connected: true)
    fixture.server.disconnect()
    try await waitForConnection(fixture.client, connected: false)
}

/// The cached messages with `requestId` as their client request id: the pending or failed copy, or the server's.
@MainActor
private func cachedCopies(of requestId: String, in client: SocialClient) async throws -> [Message] {
    try await client.store.read { connection in
        try Message.read(CacheQuery<Message>([.equals("clientRequestId", .text(requestId))], orderBy: "createdAt"),
                         from: connection)
    }
}

/// Waits for `rounds` round trips through `client`'s store queue.
@MainActor
private func settle(_ client: SocialClient, rounds: Int = 4) async throws {
    for _ in 0..<rounds { _ = try await client.store.read { _ in 0 } }
}

/// How many cached messages have `id`.
@MainActor
private func cachedCount(id: String, in client: SocialClient) async throws -> Int {
    try await client.store.read { try CacheTransactionFree.count(Message.self, id: id, in: $0) }
}

/// The server's messages in `channelId` with `requestId` as their client request id.
private func serverCopies(
    of requestId: String, on server: EmbeddedServer, channelId: String = "general"
) async throws -> [Message] {
    try await server.records(.messages(channelId: channelId, newestFirst: false)).filter { $0.clientRequestId == requestId }
}
