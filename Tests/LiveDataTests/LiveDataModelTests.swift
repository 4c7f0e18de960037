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
        modelFailureReport(
            headline: "LiveData disagrees with the reference model: seed \(seed), step \(stepIndex) of the sequence.",
            replay: "LIVEDATA_MODEL_SEED=\(seed) swift test --filter LiveDataModelTests",
            subject: "Holder: " + (initial.map { "CountingLiveData<Int>(data: \($0.map(String.init) ?? "nil"))" } ?? "CountingLiveData<Int>()"),
            stepIndex: stepIndex, step: step, history: history, expected: expected, actual: ("LiveData", actual))
    }
}

// MARK: - The real holder, driven by the same steps

@MainActor
private final class RealHolder {
    let liveData: CountingLiveData<Int>
    private var log: [ReferenceModel.Event] = []
    private var observers: [Int: Observer<Int?>] = [:]
    private let state = ModelDriverState<ReferenceModel.Action>()

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
            state.arm(observer, actions)
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
            guard let owner = state.owner(ownerId) else { return }
            liveData.removeObservers(owner: owner)
        case .set(let value):
            liveData.data = value
        case .dispatch:
            liveData.dispatch()
        case .dispatchTo(let id):
            let registered = liveData.dispatch(initiator: observers[id]!)
            log.append(.dispatchResult(observer: id, registered: registered))
        case .move(let ownerId, let target):
            state.move(ownerId, to: target)
        case .drop(let ownerId):
            state.drop(ownerId)
        case .query:
            log.append(.hasObservers(liveData.hasObservers))
            log.append(.hasActiveObservers(liveData.hasActiveObservers))
        }
    }

    private func observe(_ id: Int, _ choice: ReferenceModel.OwnerChoice) {
        let resolved = state.resolve(choice)
        if case .skipped = resolved { return }
        let observer = observers[id] ?? makeObserver(id)
        observers[id] = observer
        if case .owner(let owner) = resolved {
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
        for action in state.nextBatch(of: id) ?? [] { perform(action) }
    }
}

// MARK: - Random steps

/// Makes random steps that are valid for the model's current state: it never moves a lifecycle
/// back to `.initialized` or out of `.destroyed`, and never registers an observer with a second
/// owner (those trap).
private struct StepGenerator {
    private var picker: ModelPicker

    init(seed: UInt64) {
        picker = ModelPicker(
            seed: seed, initialStateWeights: Self.initialStateWeights, moveTargetWeights: Self.moveTargetWeights)
    }

    private var random: SeededRandom {
        get { picker.random }
        set { picker.random = newValue }
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

    /// Forever, new plain owner, new lifecycle owner, existing owner.
    private static let ownerKindWeights = [25, 20, 25, 30]
    private static let ownerKindWeightsInCallbacks = [25, 20, 0, 30]
    private static let initialStateWeights = [10, 25, 25, 30, 10]
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

    private mutating func newObserver() -> Int { picker.newObserver() }

    private mutating func anyObserver(_ model: ReferenceModel) -> Int? { picker.anyObserver(model) }

    private mutating func undroppedOwner(_ model: ReferenceModel) -> Int? { picker.undroppedOwner(model) }

    private mutating func ownerChoice(_ model: ReferenceModel, allowNewLifecycle: Bool) -> ReferenceModel.OwnerChoice {
        picker.ownerChoice(model, weights: allowNewLifecycle ? Self.ownerKindWeights : Self.ownerKindWeightsInCallbacks)
    }

    private mutating func lifecycleMove(_ model: ReferenceModel) -> ReferenceModel.Action? {
        picker.lifecycleMove(model).map { .move(owner: $0.owner, to: $0.to) }
    }
}
