import Dispatch
import Testing
import LiveData

@MainActor
@Suite struct MutableLiveEventTests {
    @Test func sendDeliversBeforeReturning() {
        let events = MutableLiveEvent<Int>()
        let recorder = Recorder<Int>()
        events.observeForever(recorder.update)
        events.send(1)
        #expect(recorder.values == [1])
        events.send(1)
        #expect(recorder.values == [1, 1], "equal events are separate events")
    }

    @Test func everyPostedEventIsSentInPostOrder() async {
        let events = MutableLiveEvent<Int>()
        let recorder = Recorder<Int>()
        events.observeForever(recorder.update)
        await Task.detached {
            for event in 0 ..< 100 { events.postEvent(event) }
        }.value
        await drainMainQueue()
        #expect(recorder.values == Array(0 ..< 100), "nothing is coalesced")
    }

    @Test func postsFromManyThreadsAllArriveEachThreadInOrder() async {
        let events = MutableLiveEvent<Int>()
        let recorder = Recorder<Int>()
        events.observeForever(recorder.update)
        await Task.detached {
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0 ..< 250 { events.postEvent(thread * 1_000 + index) }
            }
        }.value
        await drainMainQueue()
        let received = recorder.values.compactMap { $0 }
        #expect(received.count == 1_000)
        for thread in 0 ..< 4 {
            let own = received.filter { $0 / 1_000 == thread }
            #expect(own == Array(thread * 1_000 ..< thread * 1_000 + 250))
        }
    }

    @Test func anEventSentOnTheMainActorComesBeforeAPendingPost() async {
        let events = MutableLiveEvent<String>()
        let recorder = Recorder<String>()
        events.observeForever(recorder.update)
        events.postEvent("posted")
        events.send("sent")
        #expect(recorder.values == ["sent"])
        await drainMainQueue()
        #expect(recorder.values == ["sent", "posted"])
    }

    @Test func aPostedEventNobodyReceivesIsKept() async {
        let events = MutableLiveEvent<Int>(whenUnobserved: .keep)
        await Task.detached {
            events.postEvent(1)
            events.postEvent(2)
        }.value
        await drainMainQueue()
        let recorder = Recorder<Int>()
        events.observeForever(recorder.update)
        #expect(recorder.values == [1, 2])
    }
}
