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
        func show(_ events: [EventReferenceModel.Event]) -> String {
            events.isEmpty ? "(nothing)" : events.map(\.description).joined(separator: ", ")
        }
        let common = min(expected.count, actual.count)
        let firstDifference = (0 ..< common).first { expected[$0] != actual[$0] } ?? common
        var lines = [
            "LiveEvent disagrees with the reference model: policy .\(policy), seed \(seed), step \(stepIndex) of the sequence.",
            "Replay: LIVEEVENT_MODEL_SEED=\(seed) LIVEEVENT_MODEL_POLICY=\(policy) swift test --filter LiveEventModelTests",
            "Event: MutableLiveEvent<Int>(whenUnobserved: .\(policy))",
            "Steps so far (with the log both agreed on):",
        ]
        for (offset, entry) in history.enumerated() {
            lines.append("  \(offset + 1). \(entry.step)  =>  \(show(entry.expected))")
        }
        lines.append("  \(stepIndex). \(step)   <-- disagreement")
        lines.append("Model log of step \(stepIndex):     \(show(expected))")
        lines.append("LiveEvent log of step \(stepIndex): \(show(actual))")
        lines.append("First difference at event \(firstDifference).")
        return lines.joined(separator: "\n")
    }
}

// MARK: - The real event, driven by the same steps

@MainActor
private final class RealEvent {
    let events: MutableLiveEvent<Int>
    private var log: [EventReferenceModel.Event] = []
    private var observers: [Int: Observer<Int>] = [:]
    /// The test's only strong references to the owners.
    private var owners: [Int: AnyObject] = [:]
    private var scripts: [Int: [[EventReferenceModel.Action]]] = [:]

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
        case .arm(let observer, let actions): scripts[observer, default: []].append(actions)
        }
    }

    private func perform(_ action: EventReferenceModel.Action) {
        switch action {
        case .observe(let id, let choice):
            observe(id, choice)
        case .remove(let id):
            events.remove(observer: observers[id]!)
        case .removeObservers(let ownerId):
            guard let owner = owners[ownerId] else { return }
            events.removeObservers(owner: owner)
        case .send(let value):
            events.send(value)
        case .move(let ownerId, let state):
            guard let lifecycle = (owners[ownerId] as? TestOwner)?.lifecycle,
                  lifecycle.state != .destroyed, lifecycle.state != state
            else { return }
            lifecycle.state = state
        case .drop(let ownerId):
            owners[ownerId] = nil
        case .query:
            log.append(.hasObservers(events.hasObservers))
            log.append(.hasActiveObservers(events.hasActiveObservers))
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
            owner = TestOwner(state)
            owners[ownerId] = owner
        case .existing(let ownerId):
            guard let existing = owners[ownerId] else { return }
            owner = existing
        }
        let observer = observers[id] ?? Observer { [weak self] value in self?.delivered(to: id, value) }
        observers[id] = observer
        if let owner {
            events.observe(owner: owner, observer: observer)
        } else {
            events.observeForever(observer: observer)
        }
    }

    private func delivered(to id: Int, _ value: Int) {
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
private struct EventStepGenerator {
    private var random: SeededRandom
    private var nextObserver = 1
    private var nextOwner = 1
    private var nextValue = 1

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    private enum Kind: CaseIterable {
        case observeNew, reobserve, remove, removeObservers, send, move, drop, arm, query
    }
    private static let kindWeights = [12, 5, 5, 2, 16, 16, 4, 14, 4]

    private enum CallbackKind: CaseIterable {
        case send, remove, removeObservers, move, stopCaller, drop, observe, query
    }
    private static let callbackKindWeights = [35, 10, 3, 20, 8, 7, 15, 5]

    private enum OwnerKind: CaseIterable { case forever, newPlain, newLifecycle, existing }
    private static let ownerKindWeights = [15, 15, 35, 35]

    private static let initialStates: [Lifecycle.State] = [.initialized, .created, .started, .resumed, .destroyed]
    private static let initialStateWeights = [10, 30, 25, 25, 10]
    private static let moveTargets: [Lifecycle.State] = [.created, .started, .resumed, .destroyed]
    private static let moveTargetWeights = [35, 30, 25, 10]

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

    private mutating func newObserver() -> Int {
        defer { nextObserver += 1 }
        return nextObserver
    }

    private mutating func newOwner() -> Int {
        defer { nextOwner += 1 }
        return nextOwner
    }

    private mutating func anyObserver(_ model: EventReferenceModel) -> Int? {
        model.observerIds.isEmpty ? nil : random.pick(model.observerIds)
    }

    private mutating func undroppedOwner(_ model: EventReferenceModel) -> Int? {
        let candidates = model.ownerIds.filter { model.owner($0)?.isDropped == false }
        return candidates.isEmpty ? nil : random.pick(candidates)
    }

    private mutating func ownerChoice(_ model: EventReferenceModel) -> ReferenceModel.OwnerChoice {
        switch OwnerKind.allCases[random.index(weightedBy: Self.ownerKindWeights)] {
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
    private mutating func lifecycleMove(_ model: EventReferenceModel) -> EventReferenceModel.Action? {
        let candidates = model.ownerIds.filter {
            guard let owner = model.owner($0) else { return false }
            return owner.kind == .lifecycle && !owner.isDropped && owner.state != .destroyed
        }
        guard !candidates.isEmpty else { return nil }
        let owner = random.pick(candidates)
        let current = model.owner(owner)!.state
        let weights = zip(Self.moveTargets, Self.moveTargetWeights).map { $0 == current ? 0 : $1 }
        return .move(owner: owner, to: Self.moveTargets[random.index(weightedBy: weights)])
    }
}
