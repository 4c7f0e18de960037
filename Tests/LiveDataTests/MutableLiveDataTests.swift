import Testing
import LiveData
import Dispatch

@MainActor
@Suite struct MutableLiveDataTests {
    @Test func initWithDataHoldsItAndTheFirstDispatchDeliversIt() {
        let liveData = MutableLiveData(data: "hello")
        let recorder = Recorder<String>()
        liveData.observeForever(recorder.update)
        #expect(liveData.data == "hello")
        liveData.dispatch()
        liveData.dispatch()
        #expect(recorder.values == ["hello"])
    }

    @Test func viewModelsExposeItAsLiveData() {
        let writer = MutableLiveData<Int>()
        let reader: LiveData<Int> = writer
        writer.data = 3
        #expect(reader.data == 3)
    }

    @Test func postValueDeliversOnTheMainThread() async {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        liveData.observeForever(recorder.update)
        liveData.postValue(1)
        #expect(recorder.count == 0)  // handed over, not yet delivered
        await drainMainQueue()
        #expect(recorder.values == [1])
    }

    @Test func postsBeforeTheMainThreadRunsCoalesceToTheLast() async {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        liveData.observeForever(recorder.update)
        liveData.postValue(1)
        liveData.postValue(2)
        liveData.postValue(3)
        await drainMainQueue()
        #expect(recorder.values == [3])
        liveData.postValue(4)
        await drainMainQueue()
        #expect(recorder.values == [3, 4])
    }

    @Test func postValueFromOtherThreadsCoalesces() async {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        liveData.observeForever(recorder.update)
        // concurrentPerform returns only when every post is done, and the main thread is busy
        // running this test until then: no post can be applied in between.
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            liveData.postValue(index + 1)
        }
        await drainMainQueue()
        #expect(recorder.count == 1)
        #expect(liveData.data != nil)
        #expect(recorder.values == [liveData.data])
    }

    @Test func postValueFromTasksOnOtherExecutorsIsDelivered() async {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        liveData.observeForever(recorder.update)
        await Task.detached { liveData.postValue(7) }.value
        await drainMainQueue()
        #expect(recorder.values == [7])
    }

    @Test func noLockIsHeldWhileObserversRun() async {
        // Posting takes the post lock; an observer that posts (and sets) while being called
        // would deadlock or trap if any lock were held around the call.
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        liveData.observeForever { value in
            recorder.update(value)
            if value == 1 {
                liveData.postValue(3)
                liveData.data = 2
            }
        }
        liveData.data = 1
        await drainMainQueue()
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func postedNilIsAValue() async {
        let liveData = MutableLiveData(data: 1)
        let recorder = Recorder<Int>()
        liveData.observeForever(recorder.update)
        liveData.postValue(nil)
        await drainMainQueue()
        #expect(recorder.values == [nil])
    }

    @Test func aPostAppliedLaterOverwritesASetInBetween() async {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        liveData.observeForever(recorder.update)
        liveData.postValue(1)
        liveData.data = 2
        await drainMainQueue()
        #expect(recorder.values == [2, 1])
        #expect(liveData.data == 1)
    }

    @Test func postValueAcceptsNonSendableValuesItIsGiven() async {
        final class Box { var count = 0 }
        let liveData = MutableLiveData<Box>()
        let box = Box()
        box.count = 9
        liveData.postValue(box)
        await drainMainQueue()
        #expect(liveData.data?.count == 9)
    }
}
