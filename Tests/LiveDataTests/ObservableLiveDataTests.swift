import Testing
import LiveData

@MainActor
@Suite struct ObservableLiveDataTests {
    // MARK: Starting value

    @Test func startsFromTheHoldersCurrentValue() {
        #expect(ObservableLiveData(MutableLiveData(data: 3), initial: 0).value == 3)
        let setToNil = MutableLiveData<Int>()
        setToNil.data = nil
        #expect(ObservableLiveData(setToNil, initial: 0).value == nil, "nil that was set is a value")
    }

    @Test func startsFromTheInitialValueWhenNoneWasSet() {
        let holder = MutableLiveData<Int>()
        #expect(ObservableLiveData(holder, initial: 7).value == 7)
        #expect(ObservableLiveData(holder).value == nil)
    }

    // MARK: Invalidation

    @Test func isInvalidatedOncePerNewVersion() {
        let holder = MutableLiveData(data: 0)
        let bridge = ObservableLiveData(holder)
        let counter = InvalidationCounter { _ = bridge.value }
        holder.data = 1
        #expect(counter.count == 1)
        #expect(bridge.value == 1)
        holder.data = 1
        #expect(counter.count == 2, "a new version with an equal value is a change too")
        holder.data = 2
        holder.data = 3
        #expect(counter.count == 4)
        #expect(bridge.value == 3)
    }

    @Test func aRepeatedDispatchInvalidatesNothing() {
        let holder = MutableLiveData(data: 5)
        let bridge = ObservableLiveData(holder)
        let counter = InvalidationCounter { _ = bridge.value }
        holder.dispatch()
        holder.dispatch()
        #expect(counter.count == 0)
        #expect(bridge.value == 5)
    }

    @Test func aReadThatDoesNotTrackTheBridgeIsNotInvalidated() {
        let holder = MutableLiveData(data: 0)
        let bridge = ObservableLiveData(holder)
        let counter = InvalidationCounter {}
        holder.data = 1
        #expect(counter.count == 0)
        #expect(bridge.value == 1)
    }

    // MARK: Activity

    @Test func theHolderIsActiveExactlyWhileTheBridgeLives() {
        let holder = CountingLiveData<Int>()
        var bridge: ObservableLiveData<Int>? = ObservableLiveData(holder)
        #expect(holder.events == [.active])
        #expect(holder.hasActiveObservers)
        _ = bridge
        bridge = nil
        #expect(holder.events == [.active, .inactive], "released on the main actor: removed at once")
        #expect(!holder.hasObservers)
    }

    @Test func twoBridgesKeepTheHolderActiveUntilBothAreGone() {
        let holder = CountingLiveData<Int>()
        var first: ObservableLiveData<Int>? = ObservableLiveData(holder)
        var second: ObservableLiveData<Int>? = ObservableLiveData(holder)
        _ = (first, second)
        first = nil
        #expect(holder.events == [.active])
        holder.data = 4
        #expect(second?.value == 4)
        second = nil
        #expect(holder.events == [.active, .inactive])
        #expect(!holder.hasObservers)
    }

    @Test func aBridgeReleasedOnAnotherThreadRemovesItsObserverOnTheMainQueue() async {
        let holder = CountingLiveData<Int>()
        let handOff = HandOff(ObservableLiveData(holder))
        #expect(holder.hasActiveObservers)
        let releasedOnMainQueue = await Task.detached { handOff.release() }.value
        #expect(!releasedOnMainQueue)
        await drainMainQueue()
        #expect(holder.events == [.active, .inactive])
        #expect(!holder.hasObservers)
    }

    // MARK: Memory

    @Test func aReleasedBridgeAndItsViewModelAreDeallocated() {
        weak var weakModel: BridgedViewModel?
        weak var weakBridge: ObservableLiveData<String>?
        weak var weakHolder: LiveData<String>?
        do {
            let model = BridgedViewModel()
            let screen = BridgedScreen(model: model)   // the view's @State, say
            weakModel = model
            weakBridge = screen.name
            weakHolder = model.name
            model.rename("Ada")
            #expect(screen.name.value == "Ada")
        }
        #expect(weakBridge == nil)
        #expect(weakModel == nil)
        #expect(weakHolder == nil)
    }

    @Test func aViewModelHoldingItsBridgeIsDeallocated() {
        weak var weakModel: BridgedViewModel?
        weak var weakBridge: ObservableLiveData<String>?
        do {
            let model = BridgedViewModel()
            weakModel = model
            weakBridge = model.nameState
            model.rename("Grace")
            #expect(model.nameState.value == "Grace")
        }
        #expect(weakModel == nil)
        #expect(weakBridge == nil)
    }

    @Test func theBridgeDoesNotKeepTheViewModelAlive() {
        let holder = CountingLiveData<String>()
        weak var weakModel: BridgedViewModel?
        var bridge: ObservableLiveData<String>?
        do {
            let model = BridgedViewModel(holder: holder)
            weakModel = model
            bridge = ObservableLiveData(model.name)
        }
        #expect(weakModel == nil, "the bridge keeps the holder, not the view model")
        #expect(holder.hasActiveObservers)
        _ = bridge
        bridge = nil
        #expect(!holder.hasObservers)
    }

    // MARK: Threads

    @Test func aValuePostedFromAnotherThreadReachesTheBridgeOnTheMainActor() async {
        let holder = MutableLiveData<Int>()
        let bridge = ObservableLiveData(holder, initial: 0)
        let counter = InvalidationCounter { _ = bridge.value }
        await Task.detached { holder.postValue(42) }.value
        await drainMainQueue()
        #expect(bridge.value == 42)
        #expect(counter.count == 1)
        #expect(counter.allOnMainQueue)
    }
}

/// A view model that owns a holder and, for the view-model-held pattern, a bridge of it.
@MainActor
private final class BridgedViewModel {
    private let nameData: MutableLiveData<String>
    var name: LiveData<String> { nameData }
    private(set) lazy var nameState = ObservableLiveData(name, initial: "")

    init(holder: MutableLiveData<String> = MutableLiveData()) {
        nameData = holder
    }

    func rename(_ name: String) { nameData.data = name }
}

/// Stands in for a SwiftUI view's storage: it holds the bridge, and the view model.
@MainActor
private final class BridgedScreen {
    let model: BridgedViewModel
    let name: ObservableLiveData<String>

    init(model: BridgedViewModel) {
        self.model = model
        name = ObservableLiveData(model.name, initial: "")
    }
}
