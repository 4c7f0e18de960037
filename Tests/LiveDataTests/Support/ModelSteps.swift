import Foundation
import TestSupport
import LiveData

/// One step of a model test's sequence.
enum ModelStep<Action: CustomStringConvertible>: CustomStringConvertible {
    /// Performs the action at the top level.
    case perform(Action)
    /// Appends a batch to the observer's script: on a later delivery (one batch per delivery,
    /// in order) it performs these actions from inside its callback.
    case arm(observer: Int, [Action])

    var description: String {
        switch self {
        case .perform(let action): action.description
        case .arm(let observer, let actions):
            "arm #\(observer): on a delivery, \(actions.map(\.description).joined(separator: "; "))"
        }
    }
}

/// An owner as a reference model sees it: what the step generators choose from.
protocol ModelOwner {
    var kind: ReferenceModel.OwnerKind { get }
    var state: Lifecycle.State { get }
    /// The test let go of it: actions naming it are skipped.
    var isDropped: Bool { get }
}

/// A reference model's owners and observers, as the step generators read them.
protocol OwnerModel: AnyObject {
    associatedtype Owner: ModelOwner
    /// Owners in the order they were made.
    var ownerIds: [Int] { get }
    /// Observers that exist (were observed at least once), in the order they were made.
    var observerIds: [Int] { get }
    func owner(_ id: Int) -> Owner?
}

extension ReferenceModel.Owner: ModelOwner {}
extension ReferenceModel: OwnerModel {}
extension EventReferenceModel.Owner: ModelOwner {}
extension EventReferenceModel: OwnerModel {}

/// The random choices shared by the model tests' step generators: new observers and owners,
/// existing ones, the owner of an observation and lifecycle moves that never trap.
struct ModelPicker {
    /// How often each kind of owner is chosen for an observation, in the order
    /// forever, new plain owner, new lifecycle owner, existing owner.
    typealias OwnerWeights = [Int]

    var random: SeededRandom
    private var nextObserver = 1
    private var nextOwner = 1
    private let initialStateWeights: [Int]
    private let moveTargetWeights: [Int]

    private static let initialStates: [Lifecycle.State] = [.initialized, .created, .started, .resumed, .destroyed]
    private static let moveTargets: [Lifecycle.State] = [.created, .started, .resumed, .destroyed]

    /// - Parameters:
    ///   - initialStateWeights: how often a new lifecycle owner starts `.initialized`, `.created`,
    ///     `.started`, `.resumed`, `.destroyed`.
    ///   - moveTargetWeights: how often a move goes to `.created`, `.started`, `.resumed`,
    ///     `.destroyed` (never to the current state).
    init(seed: UInt64, initialStateWeights: [Int], moveTargetWeights: [Int]) {
        random = SeededRandom(seed: seed)
        self.initialStateWeights = initialStateWeights
        self.moveTargetWeights = moveTargetWeights
    }

    mutating func newObserver() -> Int {
        defer { nextObserver += 1 }
        return nextObserver
    }

    mutating func newOwner() -> Int {
        defer { nextOwner += 1 }
        return nextOwner
    }

    mutating func anyObserver(_ model: some OwnerModel) -> Int? {
        model.observerIds.isEmpty ? nil : random.pick(model.observerIds)
    }

    mutating func undroppedOwner(_ model: some OwnerModel) -> Int? {
        let candidates = model.ownerIds.filter { model.owner($0)?.isDropped == false }
        return candidates.isEmpty ? nil : random.pick(candidates)
    }

    /// The owner of a new observation, chosen with `weights`; an existing owner only if the test
    /// still holds one, else forever.
    mutating func ownerChoice(_ model: some OwnerModel, weights: OwnerWeights) -> ReferenceModel.OwnerChoice {
        switch random.index(weightedBy: weights) {
        case 0:
            return .forever
        case 1:
            return .newPlain(newOwner())
        case 2:
            let state = Self.initialStates[random.index(weightedBy: initialStateWeights)]
            return .newLifecycle(newOwner(), state)
        default:
            guard let owner = undroppedOwner(model) else { return .forever }
            return .existing(owner)
        }
    }

    /// A move of a lifecycle owner that the test still holds and that is not destroyed.
    mutating func lifecycleMove(_ model: some OwnerModel) -> (owner: Int, to: Lifecycle.State)? {
        let candidates = model.ownerIds.filter {
            guard let owner = model.owner($0) else { return false }
            return owner.kind == .lifecycle && !owner.isDropped && owner.state != .destroyed
        }
        guard !candidates.isEmpty else { return nil }
        let owner = random.pick(candidates)
        let current = model.owner(owner)!.state
        // The current state weighs nothing: always a real move.
        let weights = zip(Self.moveTargets, moveTargetWeights).map { $0 == current ? 0 : $1 }
        return (owner, Self.moveTargets[random.index(weightedBy: weights)])
    }
}

/// The report of a model test's first disagreement: where, how to replay it, the steps so far
/// with what both sides logged, and the two logs of the failing step.
func modelFailureReport<Step: CustomStringConvertible, Event: Equatable & CustomStringConvertible>(
    headline: String,
    replay: String,
    subject: String,
    stepIndex: Int,
    step: Step,
    history: [(step: Step, expected: [Event])],
    expected: [Event],
    actual: (name: String, log: [Event])
) -> String {
    func show(_ events: [Event]) -> String {
        events.isEmpty ? "(nothing)" : events.map(\.description).joined(separator: ", ")
    }
    let common = min(expected.count, actual.log.count)
    let firstDifference = (0 ..< common).first { expected[$0] != actual.log[$0] } ?? common
    var lines = [headline, "Replay: \(replay)", subject, "Steps so far (with the log both agreed on):"]
    for (offset, entry) in history.enumerated() {
        lines.append("  \(offset + 1). \(entry.step)  =>  \(show(entry.expected))")
    }
    lines.append("  \(stepIndex). \(step)   <-- disagreement")
    let modelLabel = "Model log of step \(stepIndex):"
    let actualLabel = "\(actual.name) log of step \(stepIndex):"
    let width = max(modelLabel.count, actualLabel.count) + 1
    lines.append(modelLabel.padding(toLength: width, withPad: " ", startingAt: 0) + show(expected))
    lines.append(actualLabel.padding(toLength: width, withPad: " ", startingAt: 0) + show(actual.log))
    lines.append("First difference at event \(firstDifference).")
    return lines.joined(separator: "\n")
}

/// The owners and scripts of a model test's driver of the real object: the test's only strong
/// references to the owners, and each observer's batches of actions to run from its callback.
@MainActor
final class ModelDriverState<Action> {
    /// The owner an observation resolves to.
    enum Resolved {
        /// The owner named was dropped: the observation is skipped.
        case skipped
        case forever
        case owner(AnyObject)
    }

    private var owners: [Int: AnyObject] = [:]
    private var scripts: [Int: [[Action]]] = [:]
    /// The lifecycles of every lifecycle owner made, kept until the sequence ends. A holder
    /// tells lifecycles apart by `ObjectIdentifier`: if the lifecycle of a dropped owner were
    /// freed, a new owner's lifecycle could reuse its address, and moving it would also drop the
    /// stale registrations of the dead owner, earlier than the next set, dispatch or query, at
    /// the allocator's whim (glibc reuses it every time). Keeping them makes the sequences
    /// deterministic; that early drop only changes when `onInactive` runs.
    private var lifecycles: [Lifecycle] = []

    /// The owner `choice` names, made if it is new.
    func resolve(_ choice: ReferenceModel.OwnerChoice) -> Resolved {
        switch choice {
        case .forever:
            return .forever
        case .newPlain(let id):
            let owner = PlainOwner()
            owners[id] = owner
            return .owner(owner)
        case .newLifecycle(let id, let state):
            let owner = TestOwner(state)
            lifecycles.append(owner.lifecycle)
            owners[id] = owner
            return .owner(owner)
        case .existing(let id):
            guard let owner = owners[id] else { return .skipped }
            return .owner(owner)
        }
    }

    /// The owner numbered `id`, unless the test dropped it.
    func owner(_ id: Int) -> AnyObject? { owners[id] }

    /// Moves the lifecycle of owner `id`, unless it was dropped, is destroyed or is in `state`.
    func move(_ id: Int, to state: Lifecycle.State) {
        // Hold the lifecycle only, not the owner: an observer called during the move may drop
        // the owner, which must then die.
        guard let lifecycle = (owners[id] as? TestOwner)?.lifecycle,
              lifecycle.state != .destroyed, lifecycle.state != state
        else { return }
        lifecycle.state = state
    }

    /// Lets go of the test's reference to owner `id`.
    func drop(_ id: Int) { owners[id] = nil }

    /// Appends a batch to observer `id`'s script.
    func arm(_ id: Int, _ actions: [Action]) { scripts[id, default: []].append(actions) }

    /// Removes and returns observer `id`'s next batch, if any.
    func nextBatch(of id: Int) -> [Action]? {
        guard var batches = scripts[id], !batches.isEmpty else { return nil }
        let batch = batches.removeFirst()
        scripts[id] = batches
        return batch
    }
}
