import Testing
import LiveData

@MainActor
@Suite struct ObserverTests {
    @Test func updateRunsTheGivenClosure() {
        var received: [String?] = []
        let observer: Observer<String?> = Observer(update: { received.append($0) })
        observer.update("a")
        observer.update(nil)
        #expect(received == ["a", nil])
    }

    @Test func observeReturnsTheObserverItRegistered() {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let owner = PlainOwner()
        let observer = liveData.observe(owner: owner, recorder.update)
        liveData.data = 1
        observer.update(99)
        liveData.remove(observer: observer)
        liveData.data = 2
        #expect(recorder.values == [1, 99])
    }
}
