import Testing
import LiveData

@MainActor
@Suite struct LiveEventTests {
    // MARK: Delivering to active observers only

    @Test func deliversToActiveObserversInRegistrationOrder() {
        let events = MutableLiveEvent<String>()
        var log: [String] = []
        let owner = TestOwner(.resumed)
        events.observe(owner: owner) { log.append("owner \($0)") }
        events.observeForever { log.append("forever \($0)") }
        let plain = PlainOwner()
        events.observe(owner: plain) { log.append("plain \($0)") }
        events.send("a")
        #expect(log == ["owner a", "forever a", "plain a"])
    }

    @Test func anInactiveOwnerReceivesNothingAndNothingLater() {
        let events = MutableLiveEvent<Int>()
        let recorder = Recorder<Int>()
        let owner = TestOwner(.created)
        events.observe(owner: owner, recorder.update)
        events.send(1)
        owner.state = .started
        #expect(recorder.values.isEmpty, "nothing is stored for an observer that was inactive")
        events.send(2)
        owner.state = .created
        owner.state = .resumed
        #expect(recorder.values == [2], "a screen that comes back is not told again")
    }

    @Test func aLaterObserverReceivesNothingOfEarlierEvents() {
        let events = MutableLiveEvent<Int>()
        events.send(1)
        let recorder = Recorder<Int>()
        events.observeForever(recorder.update)
        events.send(2)
        #expect(recorder.values == [2])
    }

    @Test func destroyedOwnersAreRemovedAndIgnored() {
        let events = MutableLiveEvent<Int>()
        let recorder = Recorder<Int>()
        let owner = TestOwner(.resumed)
        events.observe(owner: owner, recorder.update)
        owner.state = .destroyed
        #expect(!events.hasObservers)
        events.observe(owner: owner, recorder.update)
        #expect(!events.hasObservers, "observing with a destroyed owner is ignored")
        events.send(1)
        #expect(recorder.values.isEmpty)
    }

    @Test func aDeallocatedOwnerIsNeverCalledAndItsClosureIsReleased() {
        let events = MutableLiveEvent<Int>()
        var released = false
        var owner: PlainOwner? = PlainOwner()
        do {
            let probe = DeallocationProbe { released = true }
            events.observe(owner: owner!) { _ in _ = probe; Issue.record("called after its owner died") }
        }
        #expect(events.hasActiveObservers)
        owner = nil
        events.send(1)
        #expect(!events.hasObservers)
        #expect(released)
    }

    @Test func removedObserversAreNotCalled() {
        let events = MutableLiveEvent<Int>()
        let first = Recorder<Int>(), second = Recorder<Int>()
        let owner = PlainOwner()
        let observer = events.observe(owner: owner, first.update)
        events.observe(owner: owner, second.update)
        events.remove(observer: observer)
        events.send(1)
        events.removeObservers(owner: owner)
        events.send(2)
        #expect(first.values.isEmpty)
        #expect(second.values == [1])
        #expect(!events.hasObservers)
    }

    @Test func anOwnerThatRemovesItsObserversInItsDeinitReleasesThemAtOnce() {
        let events = MutableLiveEvent<Int>()
        var released = false
        var screen: ClosingScreen? = ClosingScreen(events: events, probe: DeallocationProbe { released = true })
        _ = screen
        screen = nil
        #expect(released, "released by the deinit, before the event is used again")
        #expect(!events.hasObservers)
    }

    @Test func registeringAnObserverAgainWithTheSameOwnerDoesNothing() {
        let events = MutableLiveEvent<Int>()
        let recorder = Recorder<Int>()
        let owner = PlainOwner()
        let observer = Observer<Int>(update: recorder.update)
        events.observe(owner: owner, observer: observer)
        events.observe(owner: owner, observer: observer)
        events.observeForever(observer: Observer { _ in })
        events.send(1)
        #expect(recorder.values == [1])
    }

    // MARK: No re-entrancy

    @Test func anEventSentFromAnObserverIsDeliveredAfterTheCurrentOne() {
        let events = MutableLiveEvent<String>()
        var log: [String] = []
        events.observeForever { event in
            log.append("A \(event)")
            if event == "first" { events.send("second") }
            log.append("A done \(event)")
        }
        events.observeForever { log.append("B \($0)") }
        events.send("first")
        #expect(log == ["A first", "A done first", "B first", "A second", "A done second", "B second"])
    }

    @Test func anObserverAddedDuringADeliveryGetsOnlyLaterEvents() {
        let events = MutableLiveEvent<Int>()
        let late = Recorder<Int>()
        var added = false
        events.observeForever { event in
            guard !added else { return }
            added = true
            events.observeForever(late.update)
            events.send(event + 1)
        }
        events.send(1)
        #expect(late.values == [2])
    }

    @Test func anObserverRemovedDuringADeliveryIsNotCalledAgain() {
        let events = MutableLiveEvent<Int>()
        let second = Recorder<Int>()
        var secondObserver: Observer<Int>?
        events.observeForever { _ in
            if let secondObserver { events.remove(observer: secondObserver) }
        }
        secondObserver = events.observeForever(second.update)
        events.send(1)
        #expect(second.values.isEmpty)
    }

    @Test func anOwnerStoppedByAnEarlierObserverMissesTheEvent() {
        let events = MutableLiveEvent<Int>()
        let screen = TestOwner(.resumed)
        let recorder = Recorder<Int>()
        events.observeForever { _ in screen.state = .created }
        events.observe(owner: screen, recorder.update)
        events.send(1)
        #expect(recorder.values.isEmpty)
    }

    // MARK: Keeping events nobody received

    @Test func droppedByDefault() {
        let events = MutableLiveEvent<Int>()
        #expect(events.unobservedPolicy == .drop)
        events.send(1)
        let recorder = Recorder<Int>()
        events.observeForever(recorder.update)
        #expect(recorder.values.isEmpty)
    }

    @Test func keptEventsGoInOrderToTheFirstObserverThatBecomesActive() {
        let events = MutableLiveEvent<Int>(whenUnobserved: .keep)
        let hidden = TestOwner(.created)
        let first = Recorder<Int>(), second = Recorder<Int>()
        events.observe(owner: hidden, first.update)
        events.send(1)
        events.send(2)
        events.send(3)
        #expect(first.values.isEmpty)
        hidden.state = .resumed
        #expect(first.values == [1, 2, 3])
        events.observeForever(second.update)
        #expect(second.values.isEmpty, "kept events go to one observer only")
    }

    @Test func keptEventsAreDeliveredOnceAcrossStopStartCycles() {
        let events = MutableLiveEvent<String>(whenUnobserved: .keep)
        let screen = TestOwner(.created)
        let recorder = Recorder<String>()
        events.observe(owner: screen, recorder.update)
        events.send("reply arrived")
        for _ in 0 ..< 3 {
            screen.state = .started
            screen.state = .resumed
            screen.state = .created
        }
        #expect(recorder.values == ["reply arrived"])
    }

    @Test func aKeptEventIsDeliveredAtRegistrationWithAnActiveOwner() {
        let events = MutableLiveEvent<Int>(whenUnobserved: .keep)
        events.send(1)
        let recorder = Recorder<Int>()
        let observer = events.observeForever(recorder.update)
        #expect(recorder.values == [1])
        events.remove(observer: observer)
        events.observeForever(observer: observer)
        #expect(recorder.values == [1], "registering again delivers nothing already handled")
    }

    @Test func aScreenThatComesBackAfterBeingDestroyedSeesNoHandledEvent() {
        let events = MutableLiveEvent<String>(whenUnobserved: .keep)
        events.send("send failed")
        var first: TestOwner? = TestOwner(.resumed)
        let seen = Recorder<String>()
        events.observe(owner: first!, seen.update)
        first?.state = .destroyed
        first = nil
        let again = TestOwner(.resumed)
        events.observe(owner: again, seen.update)
        #expect(seen.values == ["send failed"])
    }

    @Test func keptEventsSurviveAnOwnerThatDiesBeforeBecomingActive() {
        let events = MutableLiveEvent<Int>(whenUnobserved: .keep)
        var doomed: TestOwner? = TestOwner(.created)
        events.observe(owner: doomed!) { _ in Issue.record("a dead owner was called") }
        events.send(1)
        doomed = nil
        let recorder = Recorder<Int>()
        events.observeForever(recorder.update)
        #expect(recorder.values == [1])
    }

    @Test func whatTheFirstObserverDidNotReceiveGoesToTheNext() {
        let events = MutableLiveEvent<Int>(whenUnobserved: .keep)
        events.send(1)
        events.send(2)
        events.send(3)
        let screen = TestOwner(.created)
        let first = Recorder<Int>()
        events.observe(owner: screen) { event in
            first.update(event)
            screen.state = .created   // the screen is covered while it handles the first event
        }
        screen.state = .resumed
        #expect(first.values == [1])
        let second = Recorder<Int>()
        events.observeForever(second.update)
        #expect(second.values == [2, 3])
    }

    @Test func whatAnOwnerDyingPartWayDidNotReceiveGoesToTheNext() {
        let events = MutableLiveEvent<Int>(whenUnobserved: .keep)
        events.send(1)
        events.send(2)
        var screen: TestOwner? = TestOwner(.created)
        let lifecycle = screen!.lifecycle
        let first = Recorder<Int>()
        events.observe(owner: screen!) { event in
            first.update(event)
            screen = nil   // the screen is released while it handles the first event
        }
        lifecycle.state = .resumed   // moved through its lifecycle alone, as a navigator might
        #expect(first.values == [1])
        let second = Recorder<Int>()
        events.observeForever(second.update)
        #expect(second.values == [2])
    }

    @Test func keptEventsComeBeforeLaterOnes() {
        let events = MutableLiveEvent<Int>(whenUnobserved: .keep)
        events.send(1)
        let recorder = Recorder<Int>()
        events.observeForever { event in
            recorder.update(event)
            if event == 1 { events.send(2) }
        }
        events.send(3)
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func anEventNobodyReceivesIsKeptEvenWhileObserversAreRegistered() {
        let events = MutableLiveEvent<Int>(whenUnobserved: .keep)
        let screen = TestOwner(.created)
        let recorder = Recorder<Int>()
        events.observe(owner: screen, recorder.update)
        #expect(events.hasObservers)
        #expect(!events.hasActiveObservers)
        events.send(7)
        screen.state = .started
        #expect(recorder.values == [7])
    }
}

/// A screen that stops observing in its `deinit`, as a view controller may.
@MainActor
private final class ClosingScreen {
    private let events: MutableLiveEvent<Int>

    init(events: MutableLiveEvent<Int>, probe: DeallocationProbe) {
        self.events = events
        events.observe(owner: self) { _ in _ = probe }
    }

    deinit {
        // Released by the test on the main actor.
        MainActor.assumeIsolated { events.removeObservers(owner: self) }
    }
}

#if os(macOS) || os(Linux)  // exit tests: not on iOS and its siblings, which cannot spawn a process
/// The owner rule of ``LiveData``'s, kept by events too: observing with an owner from its
/// `deinit` stops the program.
@Suite struct LiveEventOwnerRuleTests {
    @Test func observingFromTheOwnersDeinitStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                var owner: EventObservingOwner? = EventObservingOwner(MutableLiveEvent<Int>())
                _ = owner
                owner = nil
            }
        }
    }
}

/// An owner that observes an event from its own `deinit`: a programming error.
private final class EventObservingOwner: Sendable {
    let event: MutableLiveEvent<Int>
    init(_ event: MutableLiveEvent<Int>) { self.event = event }
    deinit {
        MainActor.assumeIsolated { _ = event.observe(owner: self) { _ in } }
    }
}
#endif
