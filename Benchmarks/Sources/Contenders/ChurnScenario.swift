import BenchmarkSupport

/// Register plus remove: on a fresh source, `observers` observers are
/// registered, then all removed in a shuffled order, and their handles dropped.
@MainActor
public final class ChurnScenario {
    public let contender: Contender
    public let observers: Int

    private let prepareRun: () -> Void
    private let churnRun: () -> Void
    private let checkRemoval: () -> Bool

    public init(_ contender: Contender, observers: Int) {
        self.contender = contender
        self.observers = observers
        let order = shuffledIndices(count: observers)
        // One case per contender, so that each loop is compiled for its concrete type.
        switch contender {
        case .floor:
            let state = ChurnState<FloorSource>(removalOrder: order)
            prepareRun = { state.prepare() }
            churnRun = { churn(state) }
            checkRemoval = { state.removedAll }
        case .liveData:
            let state = ChurnState<LiveDataOnScreen>(removalOrder: order)
            prepareRun = { state.prepare() }
            churnRun = { churn(state) }
            checkRemoval = { state.removedAll }
        case .liveDataPlainOwner:
            let state = ChurnState<LiveDataOnPlainOwner>(removalOrder: order)
            prepareRun = { state.prepare() }
            churnRun = { churn(state) }
            checkRemoval = { state.removedAll }
        case .currentValueSubject:
            let state = ChurnState<SubjectSource>(removalOrder: order)
            prepareRun = { state.prepare() }
            churnRun = { churn(state) }
            checkRemoval = { state.removedAll }
        }
    }

    /// Makes a fresh source; not part of what is measured.
    public func prepare() {
        prepareRun()
    }

    /// Registers `observers` observers on the prepared source, then removes them all.
    public func run() {
        churnRun()
    }

    /// Whether, after `run()`, a new value reaches none of the removed observers.
    public var removedAll: Bool {
        checkRemoval()
    }
}

@MainActor
final class ChurnState<Source: ObservedSource> {
    let removalOrder: [Int]
    let tally = Tally()
    var source: Source?
    var handles: [Source.Handle] = []

    init(removalOrder: [Int]) {
        self.removalOrder = removalOrder
        handles.reserveCapacity(removalOrder.count)
    }

    func prepare() {
        source = nil
        handles.removeAll(keepingCapacity: true)
        source = Source()
    }

    var removedAll: Bool {
        guard let source else { return false }
        tally.reset()
        source.send(1)
        return tally.total == 0
    }
}

@MainActor
func churn<Source: ObservedSource>(_ state: ChurnState<Source>) {
    guard let source = state.source else { return }
    let tally = state.tally
    var handles: [Source.Handle] = []
    swap(&handles, &state.handles) // work on a local array: no access checks per call
    for _ in 0 ..< state.removalOrder.count {
        handles.append(source.register(tally))
    }
    for index in state.removalOrder {
        source.remove(handles[index])
    }
    handles.removeAll(keepingCapacity: true)
    swap(&handles, &state.handles)
}

/// `0 ..< count` in an order fixed by a seed (SplitMix64 feeding a Fisher–Yates shuffle).
func shuffledIndices(count: Int) -> [Int] {
    var indices = Array(0 ..< count)
    var generator = SeededGenerator(seed: 0x4C69_7665_4461_7461)
    indices.shuffle(using: &generator)
    return indices
}
