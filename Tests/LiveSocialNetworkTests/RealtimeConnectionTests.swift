import Foundation
import LiveSocial
import LiveSocialWire
@testable import LiveSocialNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The event stream: connecting, events, drops, heartbeats, backoff and renewal, on a fake HTTP
/// layer and a manual clock.
@Suite struct RealtimeConnectionTests {
    static let message = Message(id: "m1", clientRequestId: "r1", channelId: "general", userId: "ada", text: "hi", createdAt: 1, updatedAt: 1)

    @Test @MainActor func eventsFlowAfterConnectedInOrder() async throws {
        let harness = Harness()
        var events = harness.api.events().makeAsyncIterator()
        #expect(await events.next() == .disconnected)
        #expect(harness.api.currentConnectionState == .connecting)
        let stream = await harness.http.waitForStream(1)
        #expect(stream.request.url.path == WireRoute.events)
        #expect(stream.request.headers["Accept"] == "text/event-stream")
        #expect(stream.request.bearer == "t0")
        stream.connect()
        #expect(await events.next() == .connected)
        let created = SocialEvent.created(.message(Self.message), sequence: 5)
        let deleted = SocialEvent.deleted(SocialRecordKey(.reaction, "x"), sequence: 6)
        stream.send(try WireEventStream.frame(created) + WireEventStream.heartbeat + WireEventStream.frame(deleted))
        #expect(await events.next() == created)
        #expect(await events.next() == deleted)
        #expect(await harness.waitForState { $0 == .connected } == .connected)
        await harness.api.signOut()
        #expect(await events.next() == .disconnected)
        #expect(await events.next() == nil)
    }

    @Test @MainActor func aLateSubscriberStartsWithConnected() async throws {
        let harness = Harness()
        (await harness.http.waitForStream(1)).connect()
        _ = await harness.waitForState { $0 == .connected }
        var events = harness.api.events().makeAsyncIterator()
        #expect(await events.next() == .connected)
        await harness.api.signOut()
    }

    @Test @MainActor func aDroppedStreamReconnectsAfterTheJitteredBackoff() async throws {
        let harness = Harness()
        var events = harness.api.events().makeAsyncIterator()
        #expect(await events.next() == .disconnected)
        let first = await harness.http.waitForStream(1)
        first.connect()
        #expect(await events.next() == .connected)
        let dropAt = harness.clock.now
        first.continuation.finish(throwing: URLError(.networkConnectionLost))
        #expect(await events.next() == .disconnected)
        let delays = harness.expectedDelays([1, 2, 3, 1])
        let reconnecting = await harness.waitForState { if case .reconnecting = $0 { true } else { false } }
        #expect(reconnecting == .reconnecting(attempt: 1, nextTry: dropAt.addingTimeInterval(delays[0])))
        #expect(harness.http.streams.count == 1)

        // Two failed tries: the attempt grows and each wait is the seeded draw under its ceiling.
        var now = dropAt.addingTimeInterval(delays[0])
        for (index, attempt) in [2, 3].enumerated() {
            harness.clock.advance(to: now)
            let stream = await harness.http.waitForStream(2 + index)
            stream.continuation.yield(.head(HTTPResponse(status: 503)))
            now = now.addingTimeInterval(delays[attempt - 1])
            let expected = ConnectionState.reconnecting(attempt: attempt, nextTry: now)
            #expect(await harness.waitForState { $0 == expected } == expected)
        }
        harness.clock.advance(to: now)
        let fourth = await harness.http.waitForStream(4)
        fourth.connect()
        #expect(await events.next() == .connected)

        // Connected again, the count starts over.
        fourth.continuation.finish()
        #expect(await events.next() == .disconnected)
        let again = await harness.waitForState { if case .reconnecting = $0 { true } else { false } }
        #expect(again == .reconnecting(attempt: 1, nextTry: harness.clock.now.addingTimeInterval(delays[3])))
        await harness.api.signOut()
    }

    @Test @MainActor func aStreamSilentForTwoHeartbeatIntervalsCountsAsDropped() async throws {
        let harness = Harness()
        var events = harness.api.events().makeAsyncIterator()
        #expect(await events.next() == .disconnected)
        let stream = await harness.http.waitForStream(1)
        stream.connect()
        #expect(await events.next() == .connected)
        // A heartbeat at 25 s keeps it alive at 50 s: under 30 s of silence. The change sent with
        // it shows the reader has taken the heartbeat in.
        harness.clock.advance(by: 25)
        let created = SocialEvent.created(.message(Self.message), sequence: 5)
        stream.send(WireEventStream.heartbeat + (try WireEventStream.frame(created)))
        #expect(await events.next() == created)
        harness.clock.advance(by: 25)
        #expect(harness.api.currentConnectionState == .connected)
        harness.clock.advance(by: 5)
        #expect(await events.next() == .disconnected)
        #expect(await harness.waitForState { if case .reconnecting(1, _) = $0 { true } else { false } } != nil)
        await harness.api.signOut()
    }

    @Test @MainActor func aRefusedStreamTokenIsRenewedAndTheStreamReopensAtOnce() async throws {
        let harness = Harness { request in
            request.url.path == WireRoute.renewSession
                ? renewed("t1", expiresAt: Date(timeIntervalSince1970: 1_900_000_000)) : HTTPResponse(status: 204)
        }
        let first = await harness.http.waitForStream(1)
        first.continuation.yield(.head(.error(.unauthorized, "expired")))
        let second = await harness.http.waitForStream(2)
        #expect(second.request.bearer == "t1")
        #expect(harness.http.requests(to: WireRoute.renewSession).map(\.bearer) == ["t0"])
        second.connect()
        #expect(await harness.waitForState { $0 == .connected } == .connected)
        await harness.api.signOut()
    }

    @Test @MainActor func aRefusedRenewalOnTheStreamSignsOut() async throws {
        let harness = Harness { _ in .error(.unauthorized, "revoked") }
        var events = harness.api.events().makeAsyncIterator()
        #expect(await events.next() == .disconnected)
        (await harness.http.waitForStream(1)).continuation.yield(.head(.error(.unauthorized, "revoked")))
        #expect(await events.next() == nil)
        #expect(harness.api.currentConnectionState == .signedOut(reason: "the server refused to renew the session (revoked)"))
    }

    @Test @MainActor func anUnreadableChangeDropsTheStreamForACatchUp() async throws {
        let harness = Harness()
        var events = harness.api.events().makeAsyncIterator()
        #expect(await events.next() == .disconnected)
        let stream = await harness.http.waitForStream(1)
        stream.connect()
        #expect(await events.next() == .connected)
        stream.send("id: 9\nevent: created\ndata: {\"kind\":\"created\"}\n\n")
        #expect(await events.next() == .disconnected)
        await harness.api.signOut()
    }

    @Test @MainActor func theConnectionStateReachesTheLiveData() async throws {
        let harness = Harness()
        #expect(harness.api.connectionState.data == .connecting)
        (await harness.http.waitForStream(1)).connect()
        _ = await harness.waitForState { $0 == .connected }
        // The value is posted to the main thread; yielding the main actor lets it apply.
        await harness.waitForLiveData(.connected)
        #expect(harness.api.connectionState.data == .connected)
        await harness.api.signOut()
    }
}

extension Harness {
    /// Waits until the `LiveData` holds `state`.
    @MainActor func waitForLiveData(_ state: ConnectionState) async {
        while api.connectionState.data != state { await Task.yield() }
    }
}
