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

    // `LiveData` and `LiveEvent` keep their observers in one kind of registry: an observer
    // registered with both lives in one of them and is stood in for in the other. Each
    // registration keeps its own owner, active state and removal.

    @Test func oneObserverServesAnEventAndAHolderEachWithItsOwnOwner() {
        let events = MutableLiveEvent<Int?>()
        let data = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let eventOwner = TestOwner(.resumed)
        let dataOwner = TestOwner(.resumed)
        let observer = events.observe(owner: eventOwner, recorder.update)
        data.observe(owner: dataOwner, observer: observer)
        events.send(1)
        data.data = 2
        #expect(recorder.values == [1, 2])

        events.remove(observer: observer)
        events.send(3)
        data.data = 4
        #expect(recorder.values == [1, 2, 4])
        #expect(!events.hasObservers)
        #expect(data.hasActiveObservers)

        events.observeForever(observer: observer)
        dataOwner.state = .created
        data.data = 5
        events.send(6)
        #expect(recorder.values == [1, 2, 4, 6])
        dataOwner.state = .resumed  // back on screen: the value it missed, once
        #expect(recorder.values == [1, 2, 4, 6, 5])
    }

    @Test func destroyingOneHoldersOwnerLeavesTheOtherRegistration() {
        let data = MutableLiveData<Int>()
        let events = MutableLiveEvent<Int?>()
        let recorder = Recorder<Int>()
        let dataOwner = PlainOwner()
        let eventOwner = TestOwner(.resumed)
        let observer = data.observe(owner: dataOwner, recorder.update)
        events.observe(owner: eventOwner, observer: observer)
        eventOwner.state = .destroyed
        #expect(!events.hasObservers)
        events.send(1)
        data.data = 2
        #expect(recorder.values == [2])
        events.observe(owner: TestOwner(.destroyed), observer: observer)  // ignored, as before
        #expect(!events.hasObservers)
    }

    @Test func anObserverRemovedFromBothHoldersIsReleased() {
        let events = MutableLiveEvent<Int?>()
        let data = MutableLiveData<Int>()
        let owner = PlainOwner()
        var released = false
        var observer: Observer<Int?>?
        do {
            let probe = DeallocationProbe { released = true }
            observer = events.observe(owner: owner) { _ in _ = probe }
        }
        data.observe(owner: owner, observer: observer!)
        events.remove(observer: observer!)
        data.remove(observer: observer!)
        observer = nil
        data.data = 1
        events.send(1)
        #expect(released)
        #expect(!data.hasObservers && !events.hasObservers)
    }
}
