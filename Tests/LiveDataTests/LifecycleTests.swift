import Testing
import LiveData

@MainActor
@Suite struct LifecycleTests {
    @Test func startsInitializedAndOrdersItsStates() {
        #expect(Lifecycle().state == .initialized)
        #expect(Lifecycle.State.allCases.sorted() == [.destroyed, .initialized, .created, .started, .resumed])
        #expect(Lifecycle.State.started.isActive && Lifecycle.State.resumed.isActive)
        #expect(!Lifecycle.State.created.isActive && !Lifecycle.State.initialized.isActive)
        #expect(!Lifecycle.State.destroyed.isActive)
        #expect(Lifecycle.State.resumed.isAtLeast(.started))
        #expect(Lifecycle.State.started.description == "started")
    }

    @Test(arguments: [Lifecycle.State.initialized, .created])
    func observersOfAnInactiveOwnerAreSkipped(state: Lifecycle.State) {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let owner = TestOwner(state)
        liveData.observe(owner: owner, recorder.update)
        liveData.data = 1
        liveData.dispatch()
        #expect(recorder.count == 0)
    }

    @Test(arguments: [Lifecycle.State.started, .resumed])
    func observersOfAnActiveOwnerReceiveValues(state: Lifecycle.State) {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let owner = TestOwner(state)
        liveData.observe(owner: owner, recorder.update)
        liveData.data = 1
        #expect(recorder.values == [1])
    }

    @Test func becomingActiveDeliversOnlyTheLatestValueSetSinceRegistering() {
        let liveData = MutableLiveData(data: 0)
        let recorder = Recorder<Int>()
        let owner = TestOwner(.created)
        liveData.observe(owner: owner, recorder.update)
        liveData.data = 1
        liveData.data = 2
        owner.state = .started
        owner.state = .resumed
        #expect(recorder.values == [2])
    }

    @Test func becomingActiveDeliversNothingWhenNoValueWasSetSinceRegistering() {
        let liveData = MutableLiveData(data: 0)
        let recorder = Recorder<Int>()
        let owner = TestOwner(.created)
        liveData.observe(owner: owner, recorder.update)
        owner.state = .started
        #expect(recorder.count == 0)
    }

    @Test func becomingActiveAgainDeliversNothingAlreadyReceived() {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let owner = TestOwner(.resumed)
        liveData.observe(owner: owner, recorder.update)
        liveData.data = 1
        owner.state = .created
        owner.state = .resumed
        #expect(recorder.values == [1])
        owner.state = .created
        liveData.data = 2
        liveData.data = 3
        owner.state = .started
        #expect(recorder.values == [1, 3])
    }

    @Test func dispatchWhileInactiveDeliversTheCurrentValueOnActivation() {
        let liveData = MutableLiveData(data: 5)
        let recorder = Recorder<Int>()
        let owner = TestOwner(.created)
        liveData.observe(owner: owner, recorder.update)
        liveData.dispatch()
        #expect(recorder.count == 0)
        owner.state = .started
        #expect(recorder.values == [5])
    }

    @Test func destroyedRemovesTheOwnersObserversAtOnce() {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let owner = TestOwner(.resumed)
        weak var weakProbe: DeallocationProbe?
        do {
            let probe = DeallocationProbe()
            weakProbe = probe
            liveData.observe(owner: owner) { value in _ = probe; recorder.update(value) }
        }
        owner.state = .destroyed
        #expect(weakProbe == nil)
        #expect(!liveData.hasObservers)
        liveData.data = 1
        #expect(recorder.count == 0)
    }

    @Test func anAlreadyDestroyedOwnerIsIgnored() {
        let liveData = CountingLiveData<Int>()
        let recorder = Recorder<Int>()
        let owner = TestOwner(.destroyed)
        let observer = liveData.observe(owner: owner, recorder.update)
        liveData.data = 1
        #expect(recorder.count == 0)
        #expect(!liveData.hasObservers)
        #expect(liveData.events.isEmpty)
        #expect(!liveData.dispatch(initiator: observer))
    }

    @Test func oneLifecycleDrivesEveryHolderItsOwnerObserves() {
        let names = MutableLiveData(data: "a"), counts = MutableLiveData(data: 1)
        var log: [String] = []
        let owner = TestOwner(.created)
        names.observe(owner: owner) { log.append("name \($0!)") }
        counts.observe(owner: owner) { log.append("count \($0!)") }
        names.data = "b"
        counts.data = 2
        owner.state = .resumed
        #expect(log == ["name b", "count 2"])
    }

    @Test func aLifecycleSharedByTwoOwnersDrivesBoth() {
        @MainActor final class Child: LifecycleOwner {
            let parent: TestOwner
            init(parent: TestOwner) { self.parent = parent }
            var lifecycle: Lifecycle { parent.lifecycle }
        }
        let liveData = MutableLiveData<Int>()
        var log: [String] = []
        let parent = TestOwner(.created)
        var child: Child? = Child(parent: parent)
        liveData.observe(owner: parent) { log.append("parent \($0!)") }
        liveData.observe(owner: child!) { log.append("child \($0!)") }
        liveData.data = 1
        parent.state = .resumed
        #expect(log == ["parent 1", "child 1"])
        child = nil  // the child goes; the lifecycle it shared lives on
        liveData.data = 2
        #expect(log == ["parent 1", "child 1", "parent 2"])
        parent.state = .created
        parent.state = .resumed
        #expect(!liveData.dispatch(initiator: Observer(update: { _ in })))
        #expect(liveData.hasActiveObservers)
    }

    @Test func stateChangedFromAnObserverIsActedOnAtOnce() {
        let liveData = MutableLiveData<Int>()
        let owner = TestOwner(.created)
        var log: [String] = []
        liveData.observe(owner: owner) { value in
            log.append("first \(value!)")
            owner.state = .created  // the view hides itself
        }
        liveData.observe(owner: owner) { log.append("second \($0!)") }
        liveData.data = 1
        owner.state = .started
        #expect(log == ["first 1"])
        liveData.data = 2
        #expect(log == ["first 1"])
    }

    #if os(macOS) || os(Linux)  // exit tests: not on iOS and its siblings, which cannot spawn a process
    @Test func movingADestroyedLifecycleStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let lifecycle = Lifecycle()
                lifecycle.state = .destroyed
                lifecycle.state = .started
            }
        }
    }

    @Test func movingBackToInitializedStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let lifecycle = Lifecycle()
                lifecycle.state = .created
                lifecycle.state = .initialized
            }
        }
    }
    #endif
}
