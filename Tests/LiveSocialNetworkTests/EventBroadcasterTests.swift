import LiveSocial
@testable import LiveSocialNetwork
import Testing

@Suite struct EventBroadcasterTests {
    @Test func aStreamStartsWithTheStateThenGetsEveryChange() async {
        let broadcaster = EventBroadcaster()
        var early = broadcaster.subscribe().makeAsyncIterator()
        broadcaster.setConnected(true)
        broadcaster.setConnected(true)
        var late = broadcaster.subscribe().makeAsyncIterator()
        let event = SocialEvent.deleted(SocialRecordKey(.follow, "a->b"), sequence: 2)
        broadcaster.publish(event)
        broadcaster.setConnected(false)
        #expect(await early.next() == .disconnected)
        #expect(await early.next() == .connected)
        #expect(await early.next() == event)
        #expect(await early.next() == .disconnected)
        #expect(await late.next() == .connected)
        #expect(await late.next() == event)
        #expect(await late.next() == .disconnected)
    }

    @Test func finishingSaysDisconnectedAndEndsEveryStream() async {
        let broadcaster = EventBroadcaster()
        var events = broadcaster.subscribe().makeAsyncIterator()
        broadcaster.setConnected(true)
        broadcaster.finish()
        #expect(await events.next() == .disconnected)
        #expect(await events.next() == .connected)
        #expect(await events.next() == .disconnected)
        #expect(await events.next() == nil)
        #expect(broadcaster.subscriberCount == 0)
        var after = broadcaster.subscribe().makeAsyncIterator()
        #expect(await after.next() == .disconnected)
        #expect(await after.next() == nil)
    }

    @Test func aStreamThatStopsIsForgotten() async {
        let broadcaster = EventBroadcaster()
        do {
            let stream = broadcaster.subscribe()
            #expect(broadcaster.subscriberCount == 1)
            _ = stream
        }
        #expect(broadcaster.subscriberCount == 0)
    }
}
