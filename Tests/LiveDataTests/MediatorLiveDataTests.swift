import Testing
import LiveData

@MainActor
@Suite struct MediatorLiveDataTests {
    @Test func sourcesAreObservedOnlyWhileTheMediatorIsActive() {
        let source = CountingLiveData<Int>()
        let mediator = MediatorLiveData<Int>()
        var received: [Int?] = []
        mediator.addSource(source) { received.append($0) }
        #expect(!source.hasObservers)
        source.data = 1
        #expect(received.isEmpty)

        let owner = TestOwner(.created)
        mediator.observe(owner: owner) { _ in }
        #expect(!source.hasObservers)
        owner.state = .started
        #expect(source.hasActiveObservers)
        #expect(received == [1])  // the value the source held when the mediator became active
        owner.state = .created
        #expect(!source.hasObservers)
        #expect(source.events == [.active, .inactive])
    }

    @Test func sourceValueReachesOnChangedOncePerVersion() {
        let source = MutableLiveData(data: 1)
        let mediator = MediatorLiveData<Int>()
        var received: [Int?] = []
        mediator.addSource(source) { received.append($0) }
        let owner = TestOwner(.resumed)
        mediator.observe(owner: owner) { _ in }
        owner.state = .created
        owner.state = .resumed  // re-plugged: version 0 was already passed on
        source.dispatch()
        source.data = 2
        #expect(received == [1, 2])
    }

    @Test func addingASourceToAnActiveMediatorPassesItsCurrentValueAtOnce() {
        let source = MutableLiveData(data: "now")
        let mediator = MediatorLiveData<String>()
        mediator.observeForever { _ in }
        var received: [String?] = []
        mediator.addSource(source) { received.append($0) }
        #expect(received == ["now"])
    }

    @Test func addingASourceWithNoValueYetPassesNothing() {
        let source = MutableLiveData<String>()
        let mediator = MediatorLiveData<String>()
        mediator.observeForever { _ in }
        var received: [String?] = []
        mediator.addSource(source) { received.append($0) }
        #expect(received.isEmpty)
        source.data = "later"
        #expect(received == ["later"])
    }

    @Test func removedSourceIsNoLongerObserved() {
        let source = MutableLiveData<Int>()
        let mediator = MediatorLiveData<Int>()
        mediator.observeForever { _ in }
        var received: [Int?] = []
        mediator.addSource(source) { received.append($0) }
        source.data = 1
        mediator.removeSource(source)
        mediator.removeSource(source)  // harmless
        source.data = 2
        #expect(received == [1])
        #expect(!source.hasObservers)
    }

    @Test func mediatorCombinesSourcesAndNotifiesItsObservers() {
        let first = MutableLiveData(data: "Ada"), last = MutableLiveData(data: "Lovelace")
        let full = MediatorLiveData<String>()
        let compose = { [unowned full] in full.data = "\(first.data ?? "") \(last.data ?? "")" }
        full.addSource(first) { _ in compose() }
        full.addSource(last) { _ in compose() }
        let recorder = Recorder<String>()
        let owner = PlainOwner()
        full.observe(owner: owner, recorder.update)
        full.dispatch()
        last.data = "Byron"
        #expect(recorder.values == ["Ada Lovelace", "Ada Byron"])
    }

    @Test func anActiveMediatorIsKeptAliveByItsSources() {
        let source = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        weak var weakMediator: MediatorLiveData<Int>?
        let owner = TestOwner(.resumed)
        do {
            let mediator = MediatorLiveData<Int>()
            weakMediator = mediator
            mediator.addSource(source) { [unowned mediator] in mediator.data = $0 }
            mediator.observe(owner: owner, recorder.update)
        }
        #expect(weakMediator != nil)
        source.data = 1
        #expect(recorder.values == [1])
        owner.state = .destroyed
        #expect(weakMediator == nil)
    }

    @Test func anInactiveMediatorIsNotKeptAliveByItsSources() {
        let source = MutableLiveData<Int>()
        weak var weakMediator: MediatorLiveData<Int>?
        do {
            let mediator = MediatorLiveData<Int>()
            weakMediator = mediator
            mediator.addSource(source) { _ in }
        }
        #expect(weakMediator == nil)
        #expect(!source.hasObservers)
    }

    #if os(macOS) || os(Linux)  // exit tests: not on iOS and its siblings, which cannot spawn a process
    @Test func addingTheSameSourceTwiceStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let source = MutableLiveData<Int>()
                let mediator = MediatorLiveData<Int>()
                mediator.addSource(source) { _ in }
                mediator.addSource(source) { _ in }
            }
        }
    }
    #endif
}
