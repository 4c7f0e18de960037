import TestSupport
import Foundation
import LiveData
import Testing

/// Plays thousands of seeded random sequences against a real `MutableLiveData<Int>` and against
/// `ReferenceModel`, and compares, after every step, the ordered log of deliveries,
/// `onActive`/`onInactive`, `dispatch(initiator:)` results, `hasObservers`/`hasActiveObservers`
/// and `data`.
///
/// A failure names the seed and the step, lists the steps and shows both logs. To replay one
/// sequence: `LIVEDATA_MODEL_SEED=<seed> swift test --filter LiveDataModelTests`.
@Suite struct LiveDataModelTests {
    static let sequenceCount = 3_000
    static let stepsPerSequence = 40

    @Test @MainActor func randomSequencesMatchTheReferenceModel() {
        let seeds: [UInt64]
        if let text = ProcessInfo.processInfo.environment["LIVEDATA_MODEL_SEED"], let seed = UInt64(text) {
            seeds = [seed]
        } else {
            seeds = (1 ... UInt64(Self.sequenceCount)).map { $0 }
        }
        var coverage = ReferenceModel.Coverage()
        var steps = 0
        for seed in seeds {
            let outcome = ModelRun.play(seed: seed, steps: Self.stepsPerSequence)
            coverage.add(outcome.coverage)
            steps += outcome.stepsPlayed
            if let failure = outcome.failure {
                Issue.record(Comment(rawValue: failure))
                return  // one detailed report is enough
            }
        }
        #expect(steps == seeds.count * Self.stepsPerSequence)

        // The generator must reach every rule, or matching the model proves little.
        if seeds.count == Self.sequenceCount {
            #expect(coverage.deliveries > 20_000)
            #expect(coverage.restarts > 2_000, "sets and dispatches from inside observers")
            #expect(coverage.scriptedBatches > 5_000)
            #expect(coverage.activationDeliveries > 500, "deliveries on becoming active")
            #expect(coverage.deadOwnerDrops > 1_000, "registrations of deallocated owners dropped")
            #expect(coverage.destroyedEnds > 500)
            #expect(coverage.ignoredObservations > 100, "observing with a destroyed owner")
        }
    }
}

// MARK: - One sequence

@MainActor
private enum ModelRun {
    struct Outcome {
        var failure: String?
        var coverage: ReferenceModel.Coverage
        var stepsPlayed: Int
    }

    static func play(seed: UInt64, steps: Int) -> Outcome {
        var generator = StepGenerator(seed: seed)
        let initial = generator.initialValue()
        let model = ReferenceModel(initial: initial)
        let real = RealHolder(initial: initial)
        var history: [(step: ReferenceModel.Step, expected: [ReferenceModel.Event])] = []

        for index in 1 ... steps {
            // Every sequence ends with a query, which also drops the registrations of dead owners.
            let step = index == steps ? .perform(.query) : generator.next(for: model)
            model.apply(step)
            real.apply(step)
            let expected = model.takeLog()
            let actual = real.takeLog()
            if expected != actual {
                let report = failureReport(
                    seed: seed, initial: initial, stepIndex: index, step: step, history: history,
                    expected: expected, actual: actual
                )
                return Outcome(failure: report, coverage: model.coverage, stepsPlayed: index)
            }
            history.append((step, expected))
        }
        return Outcome(failure: nil, coverage: model.coverage, stepsPlayed: steps)
    }

    static func failureReport(
        seed: UInt64,
        initial: Int??,
        stepIndex: Int,
        step: ReferenceModel.Step,
        history: [(step: ReferenceModel.Step, expected: [ReferenceModel.Event])],
        expected: [ReferenceModel.Event],
        actual: [ReferenceModel.Event]
    ) -> String {
        func show(_ events: [ReferenceModel.Event]) -> String {
            events.isEmpty ? "(nothing)" : events.map(\.description).joined(separator: ", ")
        }
        let common = min(expected.count, actual.count)
        let firstDifference = (0 ..< common).first { expected[$0] != actual[$0] } ?? common
        var lines = [
            "LiveData disagrees with the reference model: seed \(seed), step \(stepIndex) of the sequence.",
            "Replay: LIVEDATA_MODEL_SEED=\(seed) swift test --filter LiveDataModelTests",
            "Holder: " + (initial.map { "CountingLiveData<Int>(data: \($0.map(String.init) ?? "nil"))" } ?? "CountingLiveData<Int>()"),
            "Steps so far (with the log both agreed on):",
        ]
        for (offset, entry) in history.enumerated() {
            lines.append("  \(offset + 1). \(entry.step)  =>  \(show(entry.expected))")
        }
        lines.append("  \(stepIndex). \(step)   <-- disagreement")
        lines.append("Model log of step \(stepIndex):    \(show(expected))")
        lines.append("LiveData log of step \(stepIndex): \(show(actual))")
        lines.append("First difference at event \(firstDifference).")
        return lines.joined(separator: "\n")
    }
}

// MARK: - The real holder, driven by the same steps

@MainActor
private final class RealHolder {
    let liveData: CountingLiveData<Int>
    private var log: [ReferenceModel.Event] = []
    private var observers: [Int: Observer<Int?>] = [:]
    /// The test's only strong references to the owners.
    private var owners: [Int: AnyObject] = [:]
    private var scripts: [Int: [[ReferenceModel.Action]]] = [:]
    /// The lifecycles of every lifecycle owner made, kept until the sequence ends. A holder
    /// tells lifecycles apart by `ObjectIdentifier`: if the lifecycle of a dropped owner were
    /// freed, a new owner's lifecycle could reuse its address, and moving it would also drop the
    /// stale registrations of the dead owner, earlier than the next set, dispatch or query, at
    /// the allocator's whim (glibc reuses it every time). Keeping them makes the sequences
    /// deterministic; that early drop only changes when `onInactive` runs.
    private var lifecycles: [Lifecycle] = []

    init(initial: Int??) {
        liveData = if let initial { CountingLiveData(data: initial) } else { CountingLiveData() }
        liveData.onActiveHook = { [weak self] in self?.log.append(.onActive) }
        liveData.onInactiveHook = { [weak self] in self?.log.append(.onInactive) }
    }

    func takeLog() -> [ReferenceModel.Event] {
        defer { log.removeAll(keepingCapacity: true) }
        return log
    }

    func apply(_ step: ReferenceModel.Step) {
        switch step {
        case .perform(let action):
            perform(action)
        case .arm(let observer, let actions):
            scripts[observer, default: []].append(actions)
        }
        log.append(.data(liveData.data))
    }

    private func perform(_ action: ReferenceModel.Action) {
        switch action {
        case .observe(let id, let choice):
            observe(id, choice)
        case .remove(let id):
            liveData.remove(observer: observers[id]!)
        case .removeObservers(let ownerId):
            guard let owner = owners[ownerId] else { return }
            liveData.removeObservers(owner: owner)
        case .set(let value):
            liveData.data = value
        case .dispatch:
            liveData.dispatch()
        case .dispatchTo(let id):
            let registered = liveData.dispatch(initiator: observers[id]!)
            log.append(.dispatchResult(observer: id, registered: registered))
        case .move(let ownerId, let state):
            // Hold the lifecycle only, not the owner: an observer called during the move may
            // drop the owner, which must then die.
            guard let lifecycle = (owners[ownerId] as? TestOwner)?.lifecycle,
                  lifecycle.state != .destroyed, lifecycle.state != state
            else { return }
            lifecycle.state = state
        case .drop(let ownerId):
            owners[ownerId] = nil
        case .query:
            log.append(.hasObservers(liveData.hasObservers))
            log.append(.hasActiveObservers(liveData.hasActiveObservers))
        }
    }

    private func observe(_ id: Int, _ choice: ReferenceModel.OwnerChoice) {
        let owner: AnyObject?
        switch choice {
        case .forever:
            owner = nil
        case .newPlain(let ownerId):
            owner = PlainOwner()
            owners[ownerId] = owner
        case .newLifecycle(let ownerId, let state):
            let lifecycleOwner = TestOwner(state)
            lifecycles.append(lifecycleOwner.lifecycle)
            owner = lifecycleOwner
            owners[ownerId] = owner
        case .existing(let ownerId):
            guard let existing = owners[ownerId] else { return }
            owner = existing
        }
        let observer = observers[id] ?? makeObserver(id)
        observers[id] = observer
        if let owner {
            liveData.observe(owner: owner, observer: observer)
        } else {
            liveData.observeForever(observer: observer)
        }
    }

    private func makeObserver(_ id: Int) -> Observer<Int?> {
        Observer { [weak self] value in self?.delivered(to: id, value) }
    }

    private func delivered(to id: Int, _ value: Int?) {
        log.append(.delivered(observer: id, value: value))
        guard var batches = scripts[id], !batches.isEmpty else { return }
        let batch = batches.removeFirst()
        scripts[id] = batches
        for action in batch { perform(action) }
    }
}

// MARK: - Random steps

/// Makes random steps that are valid for the model's current state: it never moves a lifecycle
/// back to `.initialized` or out of `.destroyed`, and never registers an observer with a second
/// owner (those trap).
private struct StepGenerator {
    private var random: SeededRandom
    private var nextObserver = 1
    private var nextOwner = 1

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// nil for `MutableLiveData()`, else the value for `MutableLiveData(data:)`.
    mutating func initialValue() -> Int?? {
        random.chance(25) ? .some(randomValue()) : .none
    }

    /// The kinds of top-level steps, and how often each comes.
    private enum Kind: CaseIterable {
        case observeNew, reobserve, remove, removeObservers, set, dispatch, dispatchTo, move, drop, arm, query
    }
    private static let kindWeights = [12, 4, 5, 2, 14, 6, 6, 12, 4, 14, 5]

    /// The kinds of actions from inside an observer, and how often each comes.
    private enum CallbackKind: CaseIterable {
        case set, remove, removeObservers, dispatch, dispatchTo, move, drop, observe, query
    }
    private static let callbackKindWeights = [35, 12, 3, 8, 8, 14, 5, 8, 4]

    private enum OwnerKind: CaseIterable { case forever, newPlain, newLifecycle, existing }
    private static let ownerKindWeights = [25, 20, 25, 30]
    private static let ownerKindWeightsInCallbacks = [25, 20, 0, 30]

    private static let initialStates: [Lifecycle.State] = [.initialized, .created, .started, .resumed, .destroyed]
    private static let initialStateWeights = [10, 25, 25, 30, 10]
    private static let moveTargets: [Lifecycle.State] = [.created, .started, .resumed, .destroyed]
    private static let moveTargetWeights = [30, 30, 30, 12]

    mutating func next(for model: ReferenceModel) -> ReferenceModel.Step {
        let kind = Kind.allCases[random.index(weightedBy: Self.kindWeights)]
        switch kind {
        case .observeNew:
            return .perform(.observe(observer: newObserver(), owner: ownerChoice(model, allowNewLifecycle: true)))
        case .reobserve:
            guard let observer = anyObserver(model) else { break }
            if let registration = model.registration(of: observer), model.isAlive(registration.owner) {
                // Registered with a living owner: again with the same one (does nothing).
                let same: ReferenceModel.OwnerChoice = registration.owner.map { .existing($0) } ?? .forever
                return .perform(.observe(observer: observer, owner: same))
            }
            // Removed, ended, or its owner gone: free to register with any owner.
            return .perform(.observe(observer: observer, owner: ownerChoice(model, allowNewLifecycle: true)))
        case .remove:
            guard let observer = anyObserver(model) else { break }
            return .perform(.remove(observer: observer))
        case .removeObservers:
            guard let owner = undroppedOwner(model) else { break }
            return .perform(.removeObservers(owner: owner))
        case .set:
            break
        case .dispatch:
            return .perform(.dispatch)
        case .dispatchTo:
            guard let observer = anyObserver(model) else { break }
            return .perform(.dispatchTo(observer: observer))
        case .move:
            guard let move = lifecycleMove(model) else { break }
            return .perform(move)
        case .drop:
            guard let owner = undroppedOwner(model) else { break }
            return .perform(.drop(owner: owner))
        case .arm:
            guard let observer = anyObserver(model) else { break }
            let count = random.chance(30) ? 2 : 1
            let batch = (0 ..< count).map { _ in callbackAction(model, caller: observer) }
            return .arm(observer: observer, batch)
        case .query:
            return .perform(.query)
        }
        return .perform(.set(randomValue()))
    }

    /// An action performed from inside observer `caller`'s callback.
    private mutating func callbackAction(_ model: ReferenceModel, caller: Int) -> ReferenceModel.Action {
        let kind = CallbackKind.allCases[random.index(weightedBy: Self.callbackKindWeights)]
        switch kind {
        case .set:
            break
        case .remove:
            return .remove(observer: random.chance(30) ? caller : anyObserver(model)!)
        case .removeObservers:
            guard let owner = undroppedOwner(model) else { break }
            return .removeObservers(owner: owner)
        case .dispatch:
            return .dispatch
        case .dispatchTo:
            return .dispatchTo(observer: random.chance(30) ? caller : anyObserver(model)!)
        case .move:
            guard let move = lifecycleMove(model) else { break }
            return move
        case .drop:
            guard let owner = undroppedOwner(model) else { break }
            return .drop(owner: owner)
        case .observe:
            // A new observer only: an existing one might by then be registered with another
            // owner, which traps. No new lifecycle owner either: keep the callbacks simple.
            return .observe(observer: newObserver(), owner: ownerChoice(model, allowNewLifecycle: false))
        case .query:
            return .query
        }
        return .set(randomValue())
    }

    private mutating func randomValue() -> Int? {
        random.chance(5) ? nil : random.below(100)
    }

    private mutating func newObserver() -> Int {
        defer { nextObserver += 1 }
        return nextObserver
    }

    private mutating func newOwner() -> Int {
        defer { nextOwner += 1 }
        return nextOwner
    }

    private mutating func anyObserver(_ model: ReferenceModel) -> Int? {
        model.observerIds.isEmpty ? nil : random.pick(model.observerIds)
    }

    private mutating func undroppedOwner(_ model: ReferenceModel) -> Int? {
        let candidates = model.ownerIds.filter { model.owner($0)?.isDropped == false }
        return candidates.isEmpty ? nil : random.pick(candidates)
    }

    private mutating func ownerChoice(_ model: ReferenceModel, allowNewLifecycle: Bool) -> ReferenceModel.OwnerChoice {
        let weights = allowNewLifecycle ? Self.ownerKindWeights : Self.ownerKindWeightsInCallbacks
        let kind = OwnerKind.allCases[random.index(weightedBy: weights)]
        switch kind {
        case .forever:
            return .forever
        case .newPlain:
            return .newPlain(newOwner())
        case .newLifecycle:
            let state = Self.initialStates[random.index(weightedBy: Self.initialStateWeights)]
            return .newLifecycle(newOwner(), state)
        case .existing:
            guard let owner = undroppedOwner(model) else { return .forever }
            return .existing(owner)
        }
    }

    /// Moves a lifecycle owner that the test still holds and that is not destroyed.
    private mutating func lifecycleMove(_ model: ReferenceModel) -> ReferenceModel.Action? {
        let candidates = model.ownerIds.filter {
            guard let owner = model.owner($0) else { return false }
            return owner.kind == .lifecycle && !owner.isDropped && owner.state != .destroyed
        }
        guard !candidates.isEmpty else { return nil }
        let owner = random.pick(candidates)
        let current = model.owner(owner)!.state
        // The current state weighs nothing: always a real move.
        let weights = zip(Self.moveTargets, Self.moveTargetWeights).map { $0 == current ? 0 : $1 }
        return .move(owner: owner, to: Self.moveTargets[random.index(weightedBy: weights)])
    }
}
