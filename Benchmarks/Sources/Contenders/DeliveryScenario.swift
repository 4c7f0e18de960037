/// Set plus delivery: `observers` observers are registered once; every run
/// sets new values, each reaching all of them.
@MainActor
public final class DeliveryScenario {
    public let contender: Contender
    public let observers: Int

    private let deliverSets: (Int) -> Void
    private let checkDelivery: () -> Bool

    public init(_ contender: Contender, observers: Int) {
        self.contender = contender
        self.observers = observers
        // One case per contender, so that each loop is compiled for its concrete type.
        switch contender {
        case .floor:
            let state = DeliveryState<FloorSource>(observers: observers)
            deliverSets = { deliver(state, sets: $0) }
            checkDelivery = { state.deliveredAll }
        case .liveData:
            let state = DeliveryState<LiveDataOnScreen>(observers: observers)
            deliverSets = { deliver(state, sets: $0) }
            checkDelivery = { state.deliveredAll }
        case .liveDataPlainOwner:
            let state = DeliveryState<LiveDataOnPlainOwner>(observers: observers)
            deliverSets = { deliver(state, sets: $0) }
            checkDelivery = { state.deliveredAll }
        case .currentValueSubject:
            let state = DeliveryState<SubjectSource>(observers: observers)
            deliverSets = { deliver(state, sets: $0) }
            checkDelivery = { state.deliveredAll }
        }
    }

    /// Sets `sets` new values, one after the other.
    public func run(sets: Int) {
        deliverSets(sets)
    }

    /// Whether every value set so far reached every observer exactly once.
    public var deliveredAll: Bool {
        checkDelivery()
    }
}

@MainActor
final class DeliveryState<Source: ObservedSource> {
    let source = Source()
    let tally = Tally()
    let observers: Int
    var handles: [Source.Handle] = []
    var lastValue = 0
    var sumOfValues = 0

    init(observers: Int) {
        self.observers = observers
        handles.reserveCapacity(observers)
        for _ in 0 ..< observers {
            handles.append(source.register(tally))
        }
        tally.reset() // drop what registration delivered
    }

    var deliveredAll: Bool {
        tally.total == sumOfValues &* observers
    }
}

@MainActor
func deliver<Source: ObservedSource>(_ state: DeliveryState<Source>, sets: Int) {
    let source = state.source
    var value = state.lastValue
    var sum = state.sumOfValues
    for _ in 0 ..< sets {
        value &+= 1
        sum &+= value
        source.send(value)
    }
    state.lastValue = value
    state.sumOfValues = sum
}
