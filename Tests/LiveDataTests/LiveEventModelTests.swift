import TestSupport
import Foundation
import LiveData
import Testing

/// Plays thousands of seeded random sequences against a real `MutableLiveEvent<Int>` and
/// against `EventReferenceModel`, for both policies, and compares, after every step, the ordered
/// log of deliveries and of `hasObservers` / `hasActiveObservers`.
///
/// A failure names the policy, the seed and the step, lists the steps and shows both logs. To
/// replay one sequence:
/// `LIVEEVENT_MODEL_SEED=<seed> LIVEEVENT_MODEL_POLICY=<drop|keep> swift test --filter LiveEventModelTests`.
@Suite struct LiveEventModelTests {
    static let sequenceCount = 3_000
    static let stepsPerSequence = 40

    @Test(arguments: [UnobservedEventPolicy.drop, .keep])
    @MainActor func randomSequencesMatchTheReferenceModel(policy: UnobservedEventPolicy) {
        let environment = ProcessInfo.processInfo.environment
        if let only = environment["LIVEEVENT_MODEL_POLICY"], only != policy.description { return }
        let seeds: [UInt64]
        if let text = environment["LIVEEVENT_MODEL_SEED"], let seed = UInt64(text) {
            seeds = [seed]
        } else {
            seeds = (1 ... UInt64(Self.sequenceCount)).map { $0 }
        }
        var coverage = EventReferenceModel.Coverage()
        var steps = 0
        for seed in seeds {
            let outcome = EventModelRun.play(policy: policy, seed: seed, steps: Self.stepsPerSequence)
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
            #expect(coverage.deliveries > 40_000)
            #expect(coverage.queuedSends > 3_000, "sends from inside observers")
            #expect(coverage.lateRegistrationsSkipped > 1_000, "observers registered after the send")
            #expect(coverage.keptOrDropped > 15_000, "events nobody received")
            #expect(coverage.deadOwnersSkipped > 5_000)
            #expect(coverage.destroyedEnds > 1_000)
            #expect(coverage.ignoredObservations > 1_000, "observing with a destroyed owner")
            if policy == .keep {
                #expect(coverage.keptHandOffs > 3_000)
                #expect(coverage.interruptedHandOffs > 60, "a receiver stopped part-way through the kept events")
            } else {
                #expect(coverage.keptHandOffs == 0)
            }
        }
    }
}

// MARK: - One sequence

@MainActor
private enum EventModelRun {
    struct Outcome {
        var failure: String?
        var coverage: EventReferenceModel.Coverage
        var stepsPlayed: Int
    }

    static func play(policy: UnobservedEventPolicy, seed: UInt64, steps: Int) -> Outcome {
        var generator = EventStepGenerator(seed: seed)
        let model = EventReferenceModel(policy: policy)
        let real = RealEvent(policy: policy)
        var history: [(step: EventReferenceModel.Step, expected: [EventReferenceModel.Event])] = []

        for index in 1 ... steps {
            // Every sequence ends with a query, which also drops the registrations of dead owners.
            let step = index == steps ? .perform(.query) : generator.next(for: model)
            model.apply(step)
            real.apply(step)
            let expected = model.takeLog()
            let actual = real.takeLog()
            if expected != actual {
                let report = failureReport(
                    policy: policy, seed: seed, stepIndex: index, step: step, history: history,
                    expected: expected, actual: actual)
                return Outcome(failure: report, coverage: model.coverage, stepsPlayed: index)
            }
            history.append((step, expected))
        }
        return Outcome(failure: nil, coverage: model.coverage, stepsPlayed: steps)
    }

    static func failureReport(
        policy: UnobservedEventPolicy,
        seed: UInt64,
        stepIndex: Int,
        step: EventReferenceModel.Step,
        history: [(step: EventReferenceModel.Step, expected: [EventReferenceModel.Event])],
        expected: [EventReferenceModel.Event],
        actual: [EventReferenceModel.Event]
    ) -> String {
        modelFailureReport(
            headline: "LiveEvent disagrees with the reference model: policy .\(policy), seed \(seed), step \(stepIndex) of the sequence.",
            replay: "LIVEEVENT_MODEL_SEED=\(seed) LIVEEVENT_MODEL_POLICY=\(policy) swift test --filter LiveEventModelTests",
            subject: "Event: MutableLiveEvent<Int>(whenUnobserved: .\(policy))",
            stepIndex: stepIndex, step: step, history: history, expected: expected, actual: ("LiveEvent", actual))
    }
}

// MARK: - The real event, driven by the same steps

@MainActor
private final class RealEvent {
    let events: MutableLiveEvent<Int>
    private var log: [EventReferenceModel.Event] = []
    private var observers: [Int: Observer<Int>] = [:]
    private let state = ModelDriverState<EventReferenceModel.Action>()

    init(policy: UnobservedEventPolicy) {
        events = MutableLiveEvent(whenUnobserved: policy)
    }

    func takeLog() -> [EventReferenceModel.Event] {
        defer { log.removeAll(keepingCapacity: true) }
        return log
    }

    func apply(_ step: EventReferenceModel.Step) {
        switch step {
        case .perform(let action): perform(action)
        case .arm(let observer, let actions): state.arm(observer, actions)
        }
    }

    private func perform(_ action: EventReferenceModel.Action) {
        switch action {
        case .observe(let id, let choice):
            observe(id, choice)
        case .remove(let id):
            events.remove(observer: observers[id]!)
        case .removeObservers(let ownerId):
            guard let owner = state.owner(ownerId) else { return }
            events.removeObservers(owner: owner)
        case .send(let value):
            events.send(value)
        case .move(let ownerId, let target):
            state.move(ownerId, to: target)
        case .drop(let ownerId):
            state.drop(ownerId)
        case .query:
            log.append(.hasObservers(events.hasObservers))
            log.append(.hasActiveObservers(events.hasActiveObservers))
        }
    }

    private func observe(_ id: Int, _ choice: ReferenceModel.OwnerChoice) {
        let resolved = state.resolve(choice)
        if case .skipped = resolved { return }
        let observer = observers[id] ?? Observer { [weak self] value in self?.delivered(to: id, value) }
        observers[id] = observer
        if case .owner(let owner) = resolved {
            events.observe(owner: owner, observer: observer)
        } else {
            events.observeForever(observer: observer)
        }
    }

    private func delivered(to id: Int, _ value: Int) {
        log.append(.delivered(observer: id, value: value))
        for action in state.nextBatch(of: id) ?? [] { perform(action) }
    }
}

// MARK: - Random steps

/// Makes random steps that are valid for the model's current state: it never moves a lifecycle
/// back to `.initialized` or out of `.destroyed`, and never registers an observer with a second
/// owner (those trap).
private struct EventStepGenerator {
    private var picker: ModelPicker
    private var nextValue = 1

    init(seed: UInt64) {
        picker = ModelPicker(seed: seed, initialStateWeights: [10, 30, 25, 25, 10], moveTargetWeights: [35, 30, 25, 10])
    }

    private var random: SeededRandom {
        get { picker.random }
        set { picker.random = newValue }
    }

    private enum Kind: CaseIterable {
        case observeNew, reobserve, remove, removeObservers, send, move, drop, arm, query
    }
    private static let kindWeights = [12, 5, 5, 2, 16, 16, 4, 14, 4]

    private enum CallbackKind: CaseIterable {
        case send, remove, removeObservers, move, stopCaller, drop, observe, query
    }
    private static let callbackKindWeights = [35, 10, 3, 20, 8, 7, 15, 5]

    /// Forever, new plain owner, new lifecycle owner, existing owner.
    private static let ownerKindWeights = [15, 15, 35, 35]

    mutating func next(for model: EventReferenceModel) -> EventReferenceModel.Step {
        switch Kind.allCases[random.index(weightedBy: Self.kindWeights)] {
        case .observeNew:
            return .perform(.observe(observer: newObserver(), owner: ownerChoice(model)))
        case .reobserve:
            guard let observer = anyObserver(model) else { break }
            if let registration = model.registration(of: observer), model.isAlive(registration.owner) {
                let same: ReferenceModel.OwnerChoice = registration.owner.map { .existing($0) } ?? .forever
                return .perform(.observe(observer: observer, owner: same))
            }
            return .perform(.observe(observer: observer, owner: ownerChoice(model)))
        case .remove:
            guard let observer = anyObserver(model) else { break }
            return .perform(.remove(observer: observer))
        case .removeObservers:
            guard let owner = undroppedOwner(model) else { break }
            return .perform(.removeObservers(owner: owner))
        case .send:
            break
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
        return .perform(.send(newValue()))
    }

    /// An action performed from inside observer `caller`'s callback.
    private mutating func callbackAction(_ model: EventReferenceModel, caller: Int) -> EventReferenceModel.Action {
        switch CallbackKind.allCases[random.index(weightedBy: Self.callbackKindWeights)] {
        case .send:
            break
        case .remove:
            return .remove(observer: random.chance(30) ? caller : anyObserver(model)!)
        case .removeObservers:
            guard let owner = undroppedOwner(model) else { break }
            return .removeObservers(owner: owner)
        case .move:
            guard let move = lifecycleMove(model) else { break }
            return move
        case .stopCaller:
            // The caller's screen is covered, or left, while it handles an event.
            if let owner = model.registration(of: caller)?.owner, let record = model.owner(owner),
               record.kind == .lifecycle, !record.isDropped, record.state != .destroyed {
                return .move(owner: owner, to: random.chance(75) ? .created : .destroyed)
            }
            return .remove(observer: caller)
        case .drop:
            guard let owner = undroppedOwner(model) else { break }
            return .drop(owner: owner)
        case .observe:
            // A new observer only: an existing one might by then be registered with another owner.
            return .observe(observer: newObserver(), owner: ownerChoice(model))
        case .query:
            return .query
        }
        return .send(newValue())
    }

    /// Each event a new number, so that a delivery names the event it delivers.
    private mutating func newValue() -> Int {
        defer { nextValue += 1 }
        return nextValue
    }

    private mutating func newObserver() -> Int { picker.newObserver() }

    private mutating func anyObserver(_ model: EventReferenceModel) -> Int? { picker.anyObserver(model) }

    private mutating func undroppedOwner(_ model: EventReferenceModel) -> Int? { picker.undroppedOwner(model) }

    private mutating func ownerChoice(_ model: EventReferenceModel) -> ReferenceModel.OwnerChoice {
        picker.ownerChoice(model, weights: Self.ownerKindWeights)
    }

    private mutating func lifecycleMove(_ model: EventReferenceModel) -> EventReferenceModel.Action? {
        picker.lifecycleMove(model).map { .move(owner: $0.owner, to: $0.to) }
    }
}
