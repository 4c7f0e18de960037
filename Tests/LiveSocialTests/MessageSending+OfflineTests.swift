import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// Sending while the server is unreachable: messages stay pending and are resent in order on
/// reconnection, or fail when automatic resending is off.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MessageSendingOfflineTests {
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
}
