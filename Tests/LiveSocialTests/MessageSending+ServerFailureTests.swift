import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport
import Testing

/// Sending while the server fails (an HTTP 500, as when its database restarts) but the real-time
/// connection stays up: pending messages are sent again after growing waits on the client's
/// resend clock, not only at a reconnection, which never comes.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct MessageSendingServerFailureTests {
    @Test func aSendTheServerFailsTwiceIsSentAgainAfterWaitsOfHalfASecondThenASecond() async throws {
        let fixture = try await FlakySendsFixture()
        let client = try await fixture.makeClient()
        let (collection, recorder, _) = try await openCollection(client)
        fixture.api.failNextSends(2)
        await #expect(throws: FlakySendsAPI.failure) { try await client.messages.send("through a restart", to: "general") }
        let requestId = try #require(collection.pendingMessages.first?.clientRequestId)
        #expect(fixture.api.attempts == [requestId])
        #expect(client.isConnected)

        // First wait: 0.5 s. The message stays pending meanwhile.
        #expect(try await fixture.advanceResendClock(by: .milliseconds(499)))
        #expect(fixture.api.attempts == [requestId])
        #expect(collection.pendingMessages.map(\.clientRequestId) == [requestId])
        #expect(try await !fixture.advanceResendClock(by: .milliseconds(1)))

        // The second attempt fails too: the next wait is 1 s.
        #expect(try await fixture.advanceResendClock(by: .milliseconds(999)))
        #expect(fixture.api.attempts == [requestId, requestId])
        #expect(try await !fixture.advanceResendClock(by: .milliseconds(1)))

        try await waitUntil(recorder) { steps(of: requestId, in: recorder).contains("updated succeeded") }
        try await settle(client)
        #expect(steps(of: requestId, in: recorder) == ["added pending", "updated succeeded"])
        #expect(fixture.api.attempts == [requestId, requestId, requestId])
        #expect(fixture.api.mostSendingAtOnce == 1)
        #expect(try await serverCopies(of: requestId, on: fixture.server).count == 1)
        #expect(try await cachedCopies(of: requestId, in: client).map(\.syncState) == [.synced])
        #expect(collection.pendingMessages.isEmpty)
        #expect(collection.failedMessages.isEmpty)
        #expect(fixture.resendClock.sleeperCount == 0)
    }

    @Test func theWaitsStartOverAfterASentMessage() async throws {
        let fixture = try await FlakySendsFixture()
        let client = try await fixture.makeClient()
        let (collection, recorder, _) = try await openCollection(client)
        fixture.api.failNextSends(2)
        await #expect(throws: FlakySendsAPI.failure) { try await client.messages.send("first", to: "general") }
        let first = try #require(collection.pendingMessages.first?.clientRequestId)
        #expect(try await !fixture.advanceResendClock(by: .milliseconds(500)))
        #expect(try await !fixture.advanceResendClock(by: .seconds(1)))
        try await waitUntil(recorder) { steps(of: first, in: recorder).contains("updated succeeded") }

        // A server failure after a sent message waits 0.5 s again, not 2 s.
        fixture.api.failNextSends(1)
        await #expect(throws: FlakySendsAPI.failure) { try await client.messages.send("second", to: "general") }
        let second = try #require(fixture.api.attempts.last)
        #expect(try await fixture.advanceResendClock(by: .milliseconds(499)))
        #expect(try await !fixture.advanceResendClock(by: .milliseconds(1)))
        try await waitUntil(recorder) { steps(of: second, in: recorder).contains("updated succeeded") }
        #expect(fixture.api.attempts.filter { $0 == second }.count == 2)
        #expect(try await serverCopies(of: second, on: fixture.server).count == 1)
    }

    @Test func messagesQueuedBehindAFailedOneGoAfterItInOrderOneAtATime() async throws {
        let fixture = try await FlakySendsFixture()
        let client = try await fixture.makeClient()
        let (collection, recorder, _) = try await openCollection(client)
        fixture.api.failNextSends(2)
        await #expect(throws: FlakySendsAPI.failure) { try await client.messages.send("first", to: "general") }
        // A new send tries the queue again at once: the first fails again, the wait grows to 1 s,
        // and the second's sender hears the failure too, its message pending behind the first.
        await #expect(throws: FlakySendsAPI.failure) { try await client.messages.send("second", to: "general") }
        let requestIds = collection.pendingMessages.map(\.clientRequestId)
        #expect(collection.pendingMessages.map(\.text) == ["first", "second"])
        #expect(fixture.api.attempts == [requestIds[0], requestIds[0]])
        #expect(try await fixture.advanceResendClock(by: .milliseconds(999)))
        #expect(try await !fixture.advanceResendClock(by: .milliseconds(1)))

        try await waitUntil(recorder) { collection.pendingMessages.isEmpty }
        #expect(fixture.api.attempts == [requestIds[0], requestIds[0], requestIds[0], requestIds[1]])
        #expect(fixture.api.mostSendingAtOnce == 1)
        let onServer = try await fixture.server.records(.messages(channelId: "general", newestFirst: false))
            .filter { requestIds.contains($0.clientRequestId) }
        #expect(onServer.map(\.text) == ["first", "second"])
    }

    @Test func aReconnectionDuringTheWaitSendsAtOnceAndOnlyOnce() async throws {
        let fixture = try await FlakySendsFixture()
        let client = try await fixture.makeClient()
        let (collection, recorder, _) = try await openCollection(client)
        fixture.api.failNextSends(1)
        await #expect(throws: FlakySendsAPI.failure) { try await client.messages.send("during a restart", to: "general") }
        let requestId = try #require(collection.pendingMessages.first?.clientRequestId)
        try await fixture.waitForResendWait()

        fixture.server.disconnect()
        try await waitForConnection(client, connected: false)
        fixture.server.reconnect()
        try await waitUntil(recorder) { steps(of: requestId, in: recorder).contains("updated succeeded") }
        // The wait was ended, not left to send a second time.
        #expect(fixture.resendClock.sleeperCount == 0)
        fixture.resendClock.advance(by: .seconds(60))
        try await settle(client)
        #expect(fixture.api.attempts == [requestId, requestId])
        #expect(try await serverCopies(of: requestId, on: fixture.server).count == 1)

        // The waits start over after a reconnection.
        fixture.api.failNextSends(1)
        await #expect(throws: FlakySendsAPI.failure) { try await client.messages.send("after", to: "general") }
        #expect(try await fixture.advanceResendClock(by: .milliseconds(499)))
        #expect(try await !fixture.advanceResendClock(by: .milliseconds(1)))
        try await waitUntil(recorder) { collection.pendingMessages.isEmpty }
    }

    @Test func aSendThatFindsTheServerOfflineStillWaitsForTheConnection() async throws {
        let fixture = try await FlakySendsFixture()
        let client = try await fixture.makeClient()
        let (collection, recorder, _) = try await openCollection(client)
        // The connection drops while the request is on its way.
        fixture.server.setLatency(.seconds(1))
        let task = Task { try await client.messages.send("cut off", to: "general") }
        let (pending, _) = try await next(.added, .pending, in: recorder)
        let requestId = pending.clientRequestId
        await fixture.clock.waitForSleepers(1)
        fixture.server.disconnect()
        fixture.clock.advance(by: .seconds(1))
        let outcome = await task.result
        #expect(throws: SocialAPIError.offline) { try outcome.get() }

        // No wait on the resend clock: time passing sends nothing.
        try await settle(client)
        #expect(fixture.resendClock.sleeperCount == 0)
        fixture.resendClock.advance(by: .seconds(60))
        try await settle(client)
        #expect(fixture.api.attempts == [requestId])
        #expect(collection.pendingMessages.map(\.clientRequestId) == [requestId])

        fixture.server.setLatency(.zero)
        fixture.server.reconnect()
        try await waitUntil(recorder) { steps(of: requestId, in: recorder).contains("updated succeeded") }
        #expect(fixture.api.attempts == [requestId, requestId])
        #expect(try await serverCopies(of: requestId, on: fixture.server).count == 1)
    }

    @Test func withAutoResendOffAServerFailureFailsTheMessageAndNothingWaits() async throws {
        let fixture = try await FlakySendsFixture()
        let client = try await fixture.makeClient()
        client.autoResendMessages = false
        let (collection, recorder, _) = try await openCollection(client)
        fixture.api.failNextSends(1)
        await #expect(throws: FlakySendsAPI.failure) { try await client.messages.send("no retry", to: "general") }
        let (failed, _) = try await next(.updated, .failed, in: recorder)
        try await settle(client)
        #expect(fixture.resendClock.sleeperCount == 0)
        #expect(collection.failedMessages.map(\.clientRequestId) == [failed.clientRequestId])
        #expect(collection.pendingMessages.isEmpty)
        #expect(fixture.api.attempts == [failed.clientRequestId])
    }

    @Test func releasingTheClientDuringTheWaitEndsItAndSendsNothingMore() async throws {
        let fixture = try await FlakySendsFixture()
        var client: SocialClient? = try await fixture.makeClient()
        fixture.api.failNextSends(1)
        await #expect(throws: FlakySendsAPI.failure) { try await client?.messages.send("left behind", to: "general") }
        try await fixture.waitForResendWait()
        #expect(fixture.api.attempts.count == 1)
        let store = try #require(client?.store)

        weak let released = client
        client = nil
        // Work the connection started (settling an earlier run's changes) may hold the client
        // for a few reads of the cache.
        while released != nil { _ = try await store.read { _ in 0 } }
        // The release cancels the wait, and time passing sends nothing more.
        #expect(fixture.resendClock.sleeperCount == 0)
        let attempts = fixture.api.attempts.count
        fixture.resendClock.advance(by: .seconds(60))
        for _ in 0..<10 { await Task.yield() }
        _ = try await store.read { _ in 0 }
        #expect(fixture.api.attempts.count == attempts)
    }
}
