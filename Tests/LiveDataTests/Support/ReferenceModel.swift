import TestSupport
import LiveData

/// An executable statement of the `LiveData` contract for one `MutableLiveData<Int>`, written
/// from the rules (see the doc comment on `LiveData`) and not from the implementation.
/// `LiveDataModelTests` plays the same random steps against a real holder and against this
/// model and compares what both logged.
///
/// The rules it states:
///
/// - The holder has `data` and a `version`: -1 with no value (0 after `init(data:)`); every set
///   bumps it by one.
/// - A registration remembers `lastVersion` (the holder's version when it registered, so
///   registering delivers nothing by itself) and `hasReceived`. `dispatch()` lowers
///   `lastVersion` to -1 for every registration that has received nothing, then runs a pass;
///   `dispatch(initiator:)` does that for one registration and delivers to it only.
/// - A pass delivers the current value to a registration iff it is live, its owner alive, it is
///   active, and `version > lastVersion`; a pass that meets a registration whose owner is gone
///   drops it.
/// - Active: `observeForever` always; a plain owner while it lives; a lifecycle owner while
///   `.started` or `.resumed`. `.destroyed` ends the owner's registrations at once; observing
///   with a destroyed owner is ignored. A lifecycle becoming active activates its registrations
///   in registration order and delivers to each one (an initiator pass).
/// - Re-entrancy: an observer is never called while another one runs. A set or dispatch from
///   inside an observer stores the value at once; when the observer returns, the running pass
///   stops and a new full pass starts from the first registration.
/// - An owner is held weakly: dropped by the test, it dies at once, unless a delivery under way
///   has already reached one of its registrations: that delivery keeps it alive (and calling
///   its observers) until the delivery ends. A dead owner is never called again; its
///   registrations still count as active until something drops them (a pass, `hasObservers`,
///   `hasActiveObservers`, `dispatch(initiator:)`).
/// - `onActive` when the number of active registrations goes 0 -> 1, `onInactive` for 1 -> 0.
///
/// Observers are named by number (`#3`) and owners by number (`O2`). An observer can be given a
/// script: on each of its next deliveries it performs the next batch of actions, from inside
/// its callback.
final class ReferenceModel {
    // MARK: Vocabulary shared with the driver of the real holder

    /// The owner an observation is made with.
    enum OwnerChoice: Equatable, CustomStringConvertible {
        /// `observeForever`.
        case forever
        /// A new `PlainOwner` numbered so.
        case newPlain(Int)
        /// A new `TestOwner` numbered so, created in that state.
        case newLifecycle(Int, Lifecycle.State)
        /// An owner made earlier; skipped if the test dropped it meanwhile.
        case existing(Int)

        var description: String {
            switch self {
            case .forever: "forever"
            case .newPlain(let id): "new plain owner O\(id)"
            case .newLifecycle(let id, let state): "new lifecycle owner O\(id) (.\(state))"
            case .existing(let id): "owner O\(id)"
            }
        }
    }

    /// Something done to the holder, at the top level or from inside an observer.
    enum Action: Equatable, CustomStringConvertible {
        /// Registers observer `observer` (created at its first observation) with `owner`.
        case observe(observer: Int, owner: OwnerChoice)
        case remove(observer: Int)
        /// `removeObservers(owner:)`; skipped if the test dropped the owner.
        case removeObservers(owner: Int)
        case set(Int?)
        case dispatch
        /// `dispatch(initiator:)`; logs its result.
        case dispatchTo(observer: Int)
        /// Moves a lifecycle owner; skipped if dropped, destroyed, or already in that state.
        case move(owner: Int, to: Lifecycle.State)
        /// Lets go of the test's (only) strong reference to the owner.
        case drop(owner: Int)
        /// Logs `hasObservers` and `hasActiveObservers`.
        case query

        var description: String {
            switch self {
            case .observe(let observer, let owner): "observe #\(observer) with \(owner)"
            case .remove(let observer): "remove #\(observer)"
            case .removeObservers(let owner): "removeObservers(owner: O\(owner))"
            case .set(let value): "set \(value.map(String.init) ?? "nil")"
            case .dispatch: "dispatch()"
            case .dispatchTo(let observer): "dispatch(initiator: #\(observer))"
            case .move(let owner, let state): "move O\(owner) to .\(state)"
            case .drop(let owner): "drop O\(owner)"
            case .query: "query hasObservers / hasActiveObservers"
            }
        }
    }

    /// One step of a sequence.
    typealias Step = ModelStep<Action>

    /// What both the real holder and the model log, in order.
    enum Event: Equatable, CustomStringConvertible {
        case delivered(observer: Int, value: Int?)
        case onActive
        case onInactive
        case dispatchResult(observer: Int, registered: Bool)
        case hasObservers(Bool)
        case hasActiveObservers(Bool)
        /// `data` at the end of every step.
        case data(Int?)

        var description: String {
            switch self {
            case .delivered(let observer, let value): "#\(observer) <- \(value.map(String.init) ?? "nil")"
            case .onActive: "onActive"
            case .onInactive: "onInactive"
            case .dispatchResult(let observer, let registered): "dispatch(initiator: #\(observer)) -> \(registered)"
            case .hasObservers(let value): "hasObservers \(value)"
            case .hasActiveObservers(let value): "hasActiveObservers \(value)"
            case .data(let value): "data \(value.map(String.init) ?? "nil")"
            }
        }
    }

    enum OwnerKind { case plain, lifecycle }

    struct Owner {
        let kind: OwnerKind
        var state: Lifecycle.State
        /// The test let go of it: actions naming it are skipped.
        var isDropped = false
        /// The object still exists (a dropped owner lives on while a delivery pins it).
        var isAlive = true
        /// Pinned by the delivery under way: it reached one of the owner's registrations while
        /// the owner was alive, so the owner lives until that delivery ends.
        var isPinned = false
    }

    final class Registration {
        let observer: Int
        /// nil for `observeForever`.
        let owner: Int?
        var isLive = true
        var isActive = false
        var lastVersion: Int
        var hasReceived = false

        init(observer: Int, owner: Int?, lastVersion: Int) {
            self.observer = observer
            self.owner = owner
            self.lastVersion = lastVersion
        }
    }

    /// Counts of what the sequences exercised, to check that the generator reaches every rule.
    struct Coverage {
        var deliveries = 0
        var restarts = 0
        var activationDeliveries = 0
        var deadOwnerDrops = 0
        var scriptedBatches = 0
        var destroyedEnds = 0
        var ignoredObservations = 0

        mutating func add(_ other: Coverage) {
            deliveries += other.deliveries
            restarts += other.restarts
            activationDeliveries += other.activationDeliveries
            deadOwnerDrops += other.deadOwnerDrops
            scriptedBatches += other.scriptedBatches
            destroyedEnds += other.destroyedEnds
            ignoredObservations += other.ignoredObservations
        }
    }

    // MARK: State

    private(set) var data: Int?
    private(set) var version: Int
    private(set) var registrations: [Registration] = []
    private(set) var owners: [Int: Owner] = [:]
    /// Owners in the order they were made.
    private(set) var ownerIds: [Int] = []
    /// Observers that exist (were observed at least once), in the order they were made.
    private(set) var observerIds: [Int] = []
    private(set) var log: [Event] = []
    private(set) var coverage = Coverage()

    private var knownObservers: Set<Int> = []
    private var scripts: [Int: [[Action]]] = [:]
    private var activeCount = 0
    private var isDelivering = false
    private var restartRequested = false
    /// The owner of the observer being called: it lives until the call returns.

    /// A holder made with `MutableLiveData()` (`initial` nil) or `MutableLiveData(data: initial)`.
    init(initial: Int??) {
        if let initial {
            data = initial
            version = 0
        } else {
            data = nil
            version = -1
        }
    }

    // MARK: Queries for the generator

    func owner(_ id: Int) -> Owner? { owners[id] }

    /// The live registration of `observer`, if any.
    func registration(of observer: Int) -> Registration? {
        registrations.last { $0.observer == observer && $0.isLive }
    }

    /// Whether `owner` (nil: forever) is alive for the holder.
    func isAlive(_ owner: Int?) -> Bool {
        guard let owner else { return true }
        return owners[owner]?.isAlive ?? false
    }

    /// Empties the log and returns what it held.
    func takeLog() -> [Event] {
        defer { log.removeAll(keepingCapacity: true) }
        return log
    }

    // MARK: Steps

    func apply(_ step: Step) {
        switch step {
        case .perform(let action):
            perform(action)
        case .arm(let observer, let actions):
            scripts[observer, default: []].append(actions)
        }
        log.append(.data(data))
    }

    func perform(_ action: Action) {
        switch action {
        case .observe(let observer, let choice):
            observe(observer, choice)
        case .remove(let observer):
            if let registration = registration(of: observer) { end(registration) }
        case .removeObservers(let owner):
            guard let record = owners[owner], !record.isDropped else { return }
            for registration in registrations where registration.isLive && registration.owner == owner {
                end(registration)
            }
        case .set(let value):
            data = value
            version += 1
            deliver(initiator: nil)
        case .dispatch:
            for registration in registrations where registration.isLive && !registration.hasReceived {
                registration.lastVersion = -1
            }
            deliver(initiator: nil)
        case .dispatchTo(let observer):
            dispatch(to: observer)
        case .move(let owner, let state):
            move(owner, to: state)
        case .drop(let owner):
            guard owners[owner]?.isDropped == false else { return }
            owners[owner]!.isDropped = true
            if !owners[owner]!.isPinned { owners[owner]!.isAlive = false }
        case .query:
            pruneDeadOwners()
            log.append(.hasObservers(registrations.contains { $0.isLive }))
            pruneDeadOwners()
            log.append(.hasActiveObservers(activeCount > 0))
        }
    }

    // MARK: Rules

    private func observe(_ observer: Int, _ choice: OwnerChoice) {
        let owner: Int?
        switch choice {
        case .forever:
            owner = nil
        case .newPlain(let id):
            makeOwner(id, Owner(kind: .plain, state: .initialized))
            owner = id
        case .newLifecycle(let id, let state):
            makeOwner(id, Owner(kind: .lifecycle, state: state))
            owner = id
        case .existing(let id):
            guard let record = owners[id], !record.isDropped else { return }
            owner = id
        }
        if knownObservers.insert(observer).inserted { observerIds.append(observer) }

        if let existing = registration(of: observer) {
            if let existingOwner = existing.owner, !isAlive(existingOwner) {
                // Its owner is gone, so the observer is free to register again.
                end(existing)
                coverage.deadOwnerDrops += 1
            } else {
                precondition(existing.owner == owner, "ReferenceModel: the generator re-registered #\(observer) with another owner")
                return  // same owner: nothing happens
            }
        }
        if let owner, owners[owner]!.kind == .lifecycle, owners[owner]!.state == .destroyed {
            coverage.ignoredObservations += 1
            return
        }
        let registration = Registration(observer: observer, owner: owner, lastVersion: version)
        registrations.append(registration)
        if isActiveOwner(owner) {
            registration.isActive = true
            changeActiveCount(by: 1)
        }
    }

    private func makeOwner(_ id: Int, _ owner: Owner) {
        precondition(owners[id] == nil, "ReferenceModel: owner O\(id) made twice")
        owners[id] = owner
        ownerIds.append(id)
    }

    private func isActiveOwner(_ owner: Int?) -> Bool {
        guard let owner else { return true }
        let record = owners[owner]!
        switch record.kind {
        case .plain: return record.isAlive
        case .lifecycle: return Self.isActiveState(record.state)
        }
    }

    static func isActiveState(_ state: Lifecycle.State) -> Bool {
        state == .started || state == .resumed
    }

    private func dispatch(to observer: Int) {
        guard let registration = registration(of: observer) else {
            log.append(.dispatchResult(observer: observer, registered: false))
            return
        }
        if !isAlive(registration.owner) {
            // "Whether `initiator` is registered with this holder. When it is not (never
            // registered, removed, or its owner gone or destroyed) nothing is delivered."
            end(registration)
            coverage.deadOwnerDrops += 1
            log.append(.dispatchResult(observer: observer, registered: false))
            return
        }
        if !registration.hasReceived { registration.lastVersion = -1 }
        deliver(initiator: registration)
        log.append(.dispatchResult(observer: observer, registered: true))
    }

    private func move(_ owner: Int, to state: Lifecycle.State) {
        guard let record = owners[owner], record.kind == .lifecycle, !record.isDropped,
              record.state != .destroyed, record.state != state
        else { return }
        precondition(state != .initialized, "ReferenceModel: the generator moved O\(owner) back to .initialized")
        owners[owner]!.state = state
        // Each registration of this owner, in registration order (also ones added meanwhile),
        // follows the newest state: an observer called below may move the lifecycle again.
        var index = 0
        while index < registrations.count {
            let registration = registrations[index]
            index += 1
            guard registration.isLive, registration.owner == owner else { continue }
            let current = owners[owner]!.state
            if !owners[owner]!.isAlive || current == .destroyed {
                if current == .destroyed { coverage.destroyedEnds += 1 } else { coverage.deadOwnerDrops += 1 }
                end(registration)
            } else if Self.isActiveState(current) != registration.isActive {
                if Self.isActiveState(current) {
                    registration.isActive = true
                    changeActiveCount(by: 1)
                    let before = coverage.deliveries
                    deliver(initiator: registration)
                    if coverage.deliveries > before { coverage.activationDeliveries += 1 }
                } else {
                    registration.isActive = false
                    changeActiveCount(by: -1)
                }
            }
        }
    }

    /// A delivery pass: to `initiator` only, or to every registration in order. Requested while
    /// one runs, it only marks that one to start over, as a full pass, once the observer being
    /// called returns.
    private func deliver(initiator: Registration?) {
        if isDelivering {
            restartRequested = true
            return
        }
        isDelivering = true
        var single = initiator
        repeat {
            if restartRequested { coverage.restarts += 1 }
            restartRequested = false
            if let registration = single {
                consider(registration)
                single = nil
            } else {
                var index = 0
                while index < registrations.count {
                    consider(registrations[index])
                    if restartRequested { break }
                    index += 1
                }
            }
        } while restartRequested
        isDelivering = false
        // The delivery lets go of the owners it pinned; the dropped ones die now.
        for id in owners.keys where owners[id]!.isPinned {
            owners[id]!.isPinned = false
            if owners[id]!.isDropped { owners[id]!.isAlive = false }
        }
    }

    private func consider(_ registration: Registration) {
        guard registration.isLive else { return }
        guard isAlive(registration.owner) else {
            end(registration)
            coverage.deadOwnerDrops += 1
            return
        }
        if let owner = registration.owner { owners[owner]!.isPinned = true }
        guard registration.isActive, version > registration.lastVersion else { return }
        registration.lastVersion = version
        registration.hasReceived = true
        coverage.deliveries += 1
        log.append(.delivered(observer: registration.observer, value: data))
        runScript(of: registration.observer)
    }

    private func runScript(of observer: Int) {
        guard var batches = scripts[observer], !batches.isEmpty else { return }
        let batch = batches.removeFirst()
        scripts[observer] = batches
        coverage.scriptedBatches += 1
        for action in batch { perform(action) }
    }

    private func pruneDeadOwners() {
        for registration in registrations where registration.isLive && !isAlive(registration.owner) {
            end(registration)
            coverage.deadOwnerDrops += 1
        }
    }

    private func end(_ registration: Registration) {
        guard registration.isLive else { return }
        registration.isLive = false
        if registration.isActive {
            registration.isActive = false
            changeActiveCount(by: -1)
        }
    }

    private func changeActiveCount(by delta: Int) {
        let previous = activeCount
        activeCount += delta
        precondition(activeCount >= 0, "ReferenceModel: negative active count")
        if previous == 0, activeCount > 0 {
            log.append(.onActive)
        } else if previous > 0, activeCount == 0 {
            log.append(.onInactive)
        }
    }
}
