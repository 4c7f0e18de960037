import Testing
@testable import LiveData

@MainActor
@Suite struct LiveDataTests {
    // MARK: The ETLiveData API

    @Test func newHolderHasNoValueAndDispatchDeliversNothing() {
        let liveData: LiveData<String> = LiveData()
        let recorder = Recorder<String>()
        let owner = PlainOwner()
        liveData.observe(owner: owner, recorder.update)
        liveData.dispatch()
        #expect(liveData.data == nil)
        #expect(recorder.count == 0)
    }

    @Test func registeringDeliversNothingByItself() {
        let liveData = MutableLiveData(data: "a")
        let recorder = Recorder<String>()
        let owner = PlainOwner()
        liveData.observe(owner: owner, recorder.update)
        liveData.observeForever(recorder.update)
        #expect(recorder.count == 0)
    }

    @Test func dispatchDeliversCurrentValueToObserversRegisteredSinceLastDispatch() {
        let liveData = MutableLiveData(data: "a")
        let first = Recorder<String>(), second = Recorder<String>()
        let owner = PlainOwner()
        liveData.observe(owner: owner, first.update)
        liveData.dispatch()
        liveData.observe(owner: owner, second.update)
        liveData.dispatch()
        #expect(first.values == ["a"])
        #expect(second.values == ["a"])
    }

    @Test func noObserverReceivesTheSameVersionTwice() {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let owner = PlainOwner()
        let observer = liveData.observe(owner: owner, recorder.update)
        liveData.data = 1
        liveData.dispatch()
        liveData.dispatch()
        liveData.dispatch(initiator: observer)
        liveData.data = 1
        liveData.dispatch()
        #expect(recorder.values == [1, 1])
    }

    @Test func dispatchInitiatorDeliversOnlyToThatObserver() {
        let liveData = MutableLiveData(data: 7)
        let first = Recorder<Int>(), second = Recorder<Int>()
        let owner = PlainOwner()
        liveData.observe(owner: owner, first.update)
        let observer = liveData.observe(owner: owner, second.update)
        #expect(liveData.dispatch(initiator: observer))
        #expect(first.count == 0)
        #expect(second.values == [7])
        #expect(liveData.dispatch(initiator: observer))
        #expect(second.values == [7])
    }

    @Test func dispatchInitiatorWithUnregisteredObserverDeliversNothingAndReturnsFalse() {
        let liveData = MutableLiveData(data: 7)
        let recorder = Recorder<Int>()
        let stranger = recorder.observer()
        #expect(!liveData.dispatch(initiator: stranger))
        let removed = liveData.observeForever(recorder.update)
        liveData.remove(observer: removed)
        #expect(!liveData.dispatch(initiator: removed))
        #expect(recorder.count == 0)
    }

    @Test func dispatchInitiatorWhoseOwnerIsGoneReturnsFalseAndReleasesIt() {
        let liveData = MutableLiveData(data: 7)
        let recorder = Recorder<Int>()
        var owner: PlainOwner? = PlainOwner()
        let observer = liveData.observe(owner: owner!, recorder.update)
        owner = nil
        #expect(!liveData.dispatch(initiator: observer))
        #expect(recorder.count == 0)
        #expect(!liveData.hasObservers)
    }

    @Test func observerCreatedUpFrontCanBeRegisteredLater() {
        let liveData = MutableLiveData<String>()
        var received: [String?] = []
        let observer: Observer<String?> = Observer(update: { data in received.append(data) })
        let owner = PlainOwner()
        liveData.observe(owner: owner, observer: observer)
        liveData.data = "x"
        let forever: Observer<String?> = Observer(update: { data in received.append(data) })
        liveData.observeForever(observer: forever)
        liveData.data = "y"
        #expect(received == ["x", "y", "y"])
    }

    @Test func setDeliversSynchronouslyInRegistrationOrder() {
        let liveData = MutableLiveData<Int>()
        var log: [String] = []
        let owner = PlainOwner()
        liveData.observe(owner: owner) { log.append("a\($0!)") }
        liveData.observeForever { log.append("b\($0!)") }
        liveData.observe(owner: owner) { log.append("c\($0!)") }
        liveData.data = 1
        #expect(log == ["a1", "b1", "c1"])
    }

    @Test func settingNilIsAValue() {
        let liveData = MutableLiveData(data: 1)
        let recorder = Recorder<Int>()
        liveData.observeForever(recorder.update)
        liveData.data = nil
        #expect(recorder.values == [nil])
    }

    @Test func removedObserverIsNotCalledAgain() {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let observer = liveData.observeForever(recorder.update)
        liveData.data = 1
        liveData.remove(observer: observer)
        liveData.data = 2
        liveData.remove(observer: observer)  // removing twice is harmless
        #expect(recorder.values == [1])
        #expect(!liveData.hasObservers)
    }

    @Test func removedObserverRegisteredAgainIsCalledOncePerValue() {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let observer = recorder.observer()
        let owner = PlainOwner()
        for _ in 0..<3 { liveData.observeForever { _ in } }  // so that removal leaves a gap
        liveData.observe(owner: owner, observer: observer)
        liveData.remove(observer: observer)
        liveData.observe(owner: owner, observer: observer)
        liveData.data = 1
        liveData.remove(observer: observer)
        liveData.observeForever(observer: observer)
        liveData.data = 2
        #expect(recorder.values == [1, 2])
    }

    @Test(arguments: [0, 3])
    func removedObserversClosureIsReleasedByTheNextSet(otherObservers: Int) {
        let liveData = MutableLiveData<Int>()
        for _ in 0..<otherObservers { liveData.observeForever { _ in } }
        weak var weakProbe: DeallocationProbe?
        var observer: Observer<Int?>?
        do {
            let probe = DeallocationProbe()
            weakProbe = probe
            observer = liveData.observeForever { _ in _ = probe }
        }
        liveData.remove(observer: observer!)
        observer = nil
        liveData.data = 1
        #expect(weakProbe == nil)
    }

    @Test func removeObserversOfOwnerRemovesOnlyThatOwners() {
        let liveData = MutableLiveData<Int>()
        let mine = Recorder<Int>(), theirs = Recorder<Int>()
        let me = PlainOwner(), them = TestOwner()
        liveData.observe(owner: me, mine.update)
        liveData.observe(owner: me, mine.update)
        liveData.observe(owner: them, theirs.update)
        liveData.removeObservers(owner: me)
        liveData.data = 1
        #expect(mine.count == 0)
        #expect(theirs.values == [1])
    }

    // MARK: Owners held weakly

    @Test func deallocatedOwnersObserversAreNeverCalledAgain() {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        var owner: PlainOwner? = PlainOwner()
        liveData.observe(owner: owner!, recorder.update)
        liveData.data = 1
        owner = nil
        liveData.data = 2
        liveData.dispatch()
        #expect(recorder.values == [1])
        #expect(!liveData.hasObservers)
    }

    @Test func deallocatedLifecycleOwnersObserversAreNeverCalledAgain() {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        var owner: TestOwner? = TestOwner(.resumed)
        liveData.observe(owner: owner!, recorder.update)
        owner = nil
        liveData.data = 1
        #expect(recorder.count == 0)
        #expect(!liveData.hasObservers)
    }

    @Test func ownerDeathReleasesTheClosureByTheNextSet() {
        let liveData = MutableLiveData<Int>()
        weak var weakProbe: DeallocationProbe?
        var owner: PlainOwner? = PlainOwner()
        do {
            let probe = DeallocationProbe()
            weakProbe = probe
            liveData.observe(owner: owner!) { _ in _ = probe }
        }
        #expect(weakProbe != nil)
        owner = nil
        liveData.data = 1
        #expect(weakProbe == nil)
    }

    @Test func ownerDeathReleasesTheClosureByTheNextDispatch() {
        let liveData = MutableLiveData<Int>()
        weak var weakProbe: DeallocationProbe?
        var owner: TestOwner? = TestOwner(.created)  // inactive: still released
        do {
            let probe = DeallocationProbe()
            weakProbe = probe
            liveData.observe(owner: owner!) { _ in _ = probe }
        }
        owner = nil
        liveData.dispatch()
        #expect(weakProbe == nil)
    }

    @Test func holderDoesNotKeepItsOwnerAlive() {
        let liveData = MutableLiveData<Int>()
        weak var weakOwner: TestOwner?
        do {
            let owner = TestOwner()
            weakOwner = owner
            liveData.observe(owner: owner) { _ in }
        }
        #expect(weakOwner == nil)
    }

    @Test func ownerReleasedByAnEarlierObserverIsNotCalled() {
        let liveData = MutableLiveData<Int>()
        var victim: PlainOwner? = PlainOwner()
        let killer = PlainOwner()
        var log: [String] = []
        liveData.observe(owner: killer) { _ in log.append("killer"); victim = nil }
        liveData.observe(owner: victim!) { _ in log.append("victim") }
        liveData.data = 1
        #expect(log == ["killer"])
    }

    @Test func ownerReleasedDuringADeliveryLivesUntilItEndsThenGetsNoMoreCalls() {
        let liveData = MutableLiveData<Int>()
        var owner: PlainOwner? = PlainOwner()
        weak let weakOwner = owner
        var log: [String] = []
        liveData.observe(owner: owner!) { value in
            log.append("a\(value!)")
            owner = nil
            if value == 1 { liveData.data = 2 }
        }
        liveData.observe(owner: owner!) { log.append("b\($0!)") }
        liveData.observeForever { log.append("f\($0!)") }
        liveData.data = 1
        // The restarted delivery still reaches the owner it had pinned …
        #expect(log == ["a1", "a2", "b2", "f2"])
        // … and lets go of it when it ends.
        #expect(weakOwner == nil)
        liveData.data = 3
        #expect(log == ["a1", "a2", "b2", "f2", "f3"])
        #expect(liveData.hasActiveObservers)  // the forever observer remains
    }

    @Test func ownerStaysAllocatedWhileItsObserverRuns() {
        final class Screen { var title = "main" }
        let liveData = MutableLiveData<Int>()
        var screen: Screen? = Screen()
        unowned let unownedScreen = screen!
        var titles: [String] = []
        liveData.observe(owner: screen!) { _ in
            screen = nil                      // the last outside reference goes …
            titles.append(unownedScreen.title)  // … yet the owner is still valid here
        }
        liveData.data = 1
        liveData.data = 2
        #expect(titles == ["main"])
    }

    @Test func ownerReleasedBeforeADeliveryReachesItIsNotCalled() {
        let liveData = MutableLiveData<Int>()
        var owner: PlainOwner? = PlainOwner()
        var log: [String] = []
        liveData.observeForever { _ in owner = nil }
        liveData.observe(owner: owner!) { log.append("a\($0!)") }
        liveData.observe(owner: owner!) { log.append("b\($0!)") }
        liveData.data = 1
        liveData.data = 2
        #expect(log.isEmpty)
    }

    @Test func interleavedRegistrationsOfOneOwnerShareItsLifetime() {
        let liveData = MutableLiveData<Int>()
        var owner: PlainOwner? = PlainOwner()
        var log: [String] = []
        liveData.observe(owner: owner!) { log.append("a\($0!)") }
        liveData.observeForever { _ in owner = nil }
        liveData.observe(owner: owner!) { log.append("b\($0!)") }
        liveData.data = 1  // the owner was reached first: it lives to the end of this delivery
        liveData.data = 2
        #expect(log == ["a1", "b1"])
    }

    @Test func dispatchInitiatorForAnOwnerReleasedBeforeTheDeliveryReachedItReturnsFalse() {
        let liveData = MutableLiveData<Int>()
        var owner: PlainOwner? = PlainOwner()
        var result: Bool?
        var observer: Observer<Int?>?
        liveData.observeForever { _ in
            owner = nil
            result = liveData.dispatch(initiator: observer!)
        }
        observer = liveData.observe(owner: owner!) { _ in }
        liveData.data = 1
        #expect(result == false)
    }

    @Test func observerOfDeallocatedOwnerMayRegisterAgainWithAnotherOwner() {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let observer = recorder.observer()
        var first: PlainOwner? = PlainOwner()
        liveData.observe(owner: first!, observer: observer)
        first = nil
        let second = PlainOwner()
        liveData.observe(owner: second, observer: observer)
        liveData.data = 1
        #expect(recorder.values == [1])
    }

    // MARK: Re-entrancy and changes during delivery

    @Test func setFromInsideAnObserverRestartsDeliveryWithTheNewestValue() {
        let liveData = MutableLiveData<Int>()
        var log: [String] = []
        liveData.observeForever { value in
            log.append("a\(value!)")
            if value == 1 { liveData.data = 2 }
        }
        liveData.observeForever { log.append("b\($0!)") }
        liveData.data = 1
        #expect(log == ["a1", "a2", "b2"])
    }

    @Test func nestedSetsNeverDeliverReentrantly() {
        let liveData = MutableLiveData<Int>()
        var depth = 0, maxDepth = 0, calls = 0
        liveData.observeForever { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            calls += 1
            if value! < 5 { liveData.data = value! + 1 }
            depth -= 1
        }
        liveData.data = 0
        #expect(maxDepth == 1)
        #expect(calls == 6)
        #expect(liveData.data == 5)
    }

    @Test func observerAddedDuringDeliveryGetsOnlyLaterValues() {
        let liveData = MutableLiveData<Int>()
        let late = Recorder<Int>()
        var added = false
        liveData.observeForever { _ in
            if !added {
                added = true
                liveData.observeForever(late.update)
            }
        }
        liveData.data = 1
        liveData.data = 2
        #expect(late.values == [2])
    }

    @Test func observerRemovedDuringDeliveryIsNotCalled() {
        let liveData = MutableLiveData<Int>()
        let victim = Recorder<Int>()
        var victimObserver: Observer<Int?>?
        liveData.observeForever { _ in
            if let observer = victimObserver { liveData.remove(observer: observer) }
        }
        victimObserver = liveData.observeForever(victim.update)
        liveData.data = 1
        #expect(victim.count == 0)
    }

    @Test func observerRemovingItselfDuringDeliveryLeavesOthersIntact() {
        let liveData = MutableLiveData<Int>()
        let other = Recorder<Int>()
        var selfRemoving: Observer<Int?>?
        var selfCalls = 0
        selfRemoving = liveData.observeForever { _ in
            selfCalls += 1
            liveData.remove(observer: selfRemoving!)
        }
        liveData.observeForever(other.update)
        liveData.data = 1
        liveData.data = 2
        #expect(selfCalls == 1)
        #expect(other.values == [1, 2])
    }

    @Test func manyRemovalsCompactWithoutLosingOrder() {
        let liveData = MutableLiveData<Int>()
        var log: [Int] = []
        var observers: [Observer<Int?>] = []
        for index in 0..<100 {
            observers.append(liveData.observeForever { _ in log.append(index) })
        }
        for index in stride(from: 0, to: 100, by: 3) { liveData.remove(observer: observers[index]) }
        liveData.data = 1
        #expect(log == Array(0..<100).filter { $0 % 3 != 0 })
    }

    // MARK: Observers and activity

    @Test func hasObserversAndHasActiveObservers() {
        let liveData = MutableLiveData<Int>()
        #expect(!liveData.hasObservers && !liveData.hasActiveObservers)
        let owner = TestOwner(.created)
        liveData.observe(owner: owner) { _ in }
        #expect(liveData.hasObservers && !liveData.hasActiveObservers)
        owner.state = .started
        #expect(liveData.hasActiveObservers)
        owner.state = .destroyed
        #expect(!liveData.hasObservers && !liveData.hasActiveObservers)
    }

    @Test func onActiveAndOnInactiveFollowTheActiveCount() {
        let liveData = CountingLiveData<Int>()
        let owner = TestOwner(.created)
        liveData.observe(owner: owner) { _ in }
        #expect(liveData.events == [])
        owner.state = .started
        #expect(liveData.events == [.active])
        let forever = liveData.observeForever { _ in }
        owner.state = .created
        #expect(liveData.events == [.active])
        liveData.remove(observer: forever)
        #expect(liveData.events == [.active, .inactive])
        owner.state = .resumed
        owner.state = .destroyed
        #expect(liveData.events == [.active, .inactive, .active, .inactive])
    }

    @Test func onInactiveRunsWhenTheLastActiveOwnerIsFoundDeallocated() {
        let liveData = CountingLiveData<Int>()
        var owner: PlainOwner? = PlainOwner()
        liveData.observe(owner: owner!) { _ in }
        owner = nil
        liveData.data = 1
        #expect(liveData.events == [.active, .inactive])
    }

    @Test func valueSetInOnActiveIsNotDeliveredToTheRegisteringObserver() {
        let liveData = CountingLiveData<Int>()
        liveData.onActiveHook = { liveData.data = 42 }
        let recorder = Recorder<Int>()
        let observer = liveData.observeForever(recorder.update)
        #expect(liveData.data == 42)
        #expect(recorder.count == 0)
        liveData.dispatch(initiator: observer)
        #expect(recorder.values == [42])
    }

    @Test func onActiveCanRemoveTheObserverThatTriggeredIt() {
        let liveData = CountingLiveData<Int>()
        var observer: Observer<Int?>?
        liveData.onActiveHook = { if let observer { liveData.remove(observer: observer) } }
        observer = Observer(update: { _ in })
        liveData.observeForever(observer: observer!)
        #expect(liveData.events == [.active, .inactive])
        #expect(!liveData.hasObservers)
    }

    // MARK: Programming errors

    @Test func registeringTheSameObserverWithTheSameOwnerTwiceIsIgnored() {
        let liveData = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let observer = recorder.observer()
        let owner = PlainOwner()
        liveData.observe(owner: owner, observer: observer)
        liveData.observe(owner: owner, observer: observer)
        liveData.observeForever(observer: recorder.observer())
        liveData.data = 1
        #expect(recorder.values == [1, 1])
    }

    #if os(macOS) || os(Linux)  // exit tests: not on iOS and its siblings, which cannot spawn a process
    @Test func registeringTheSameObserverWithTwoOwnersStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let liveData = MutableLiveData<Int>()
                let observer = Observer<Int?>(update: { _ in })
                let first = PlainOwner(), second = PlainOwner()
                liveData.observe(owner: first, observer: observer)
                liveData.observe(owner: second, observer: observer)
            }
        }
    }

    @Test func registeringAnOwnedObserverForeverStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let liveData = MutableLiveData<Int>()
                let owner = PlainOwner()
                let observer = liveData.observe(owner: owner) { _ in }
                liveData.observeForever(observer: observer)
            }
        }
    }
    #endif

    @Test func observerSharedByTwoHoldersFollowsEachOnesOwnerAndVersions() {
        let first = MutableLiveData(data: 1), second = MutableLiveData(data: 10)
        let recorder = Recorder<Int>()
        let observer = recorder.observer()
        let owner = TestOwner(.created)
        first.observeForever(observer: observer)
        second.observe(owner: owner, observer: observer)
        second.observe(owner: owner, observer: observer)  // same owner again: nothing
        first.dispatch()
        second.dispatch()
        #expect(recorder.values == [1])
        owner.state = .started
        #expect(recorder.values == [1, 10])
        #expect(second.dispatch(initiator: observer))
        second.remove(observer: observer)
        #expect(!second.dispatch(initiator: observer))
        second.data = 11
        first.data = 2
        #expect(recorder.values == [1, 10, 2])
        #expect(!second.hasObservers)
    }

    @Test func sameObserverMayObserveTwoHolders() {
        let first = MutableLiveData<Int>(), second = MutableLiveData<Int>()
        let recorder = Recorder<Int>()
        let observer = recorder.observer()
        let owner = PlainOwner()
        first.observe(owner: owner, observer: observer)
        second.observeForever(observer: observer)
        first.data = 1
        second.data = 2
        first.remove(observer: observer)
        first.data = 3
        second.data = 4
        #expect(recorder.values == [1, 2, 4])
    }
}
