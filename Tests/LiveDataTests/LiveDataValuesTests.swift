import Testing
import LiveData

@MainActor
@Suite struct LiveDataValuesTests {
    @Test func yieldsTheCurrentValueThenEachNewOne() async {
        let liveData = MutableLiveData(data: 1)
        var iterator = liveData.values.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        liveData.data = 2
        #expect(await iterator.next() == 2)
        liveData.data = nil
        #expect(await iterator.next() == .some(nil))
    }

    @Test func aSlowConsumerGetsTheNewestValue() async {
        let liveData = MutableLiveData<Int>()
        var iterator = liveData.values.makeAsyncIterator()
        liveData.data = 1
        liveData.data = 2
        liveData.data = 3
        #expect(await iterator.next() == 3)
    }

    @Test func droppingTheSequenceEndsTheObservation() async {
        let liveData = CountingLiveData<Int>()
        func observeAndDrop() {
            let values = liveData.values
            _ = values
            #expect(liveData.hasObservers)
        }
        observeAndDrop()
        await drainMainQueue()
        #expect(!liveData.hasObservers)
        #expect(liveData.events == [.active, .inactive])
    }

    @Test func cancellingTheConsumingTaskEndsTheObservation() async {
        let liveData = MutableLiveData(data: 0)
        let values = liveData.values
        let consumer = Task { @MainActor in
            var seen = 0
            for await _ in values { seen += 1 }
            return seen
        }
        #expect(liveData.hasObservers)
        consumer.cancel()
        _ = await consumer.value
        await drainMainQueue()
        #expect(!liveData.hasObservers)
    }
}
