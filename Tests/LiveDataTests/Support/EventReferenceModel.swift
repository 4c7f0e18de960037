import LiveData

/// An executable statement of the `LiveEvent` contract for one `MutableLiveEvent<Int>`, written
/// from the rules (see the doc comment on `LiveEvent`) and not from the implementation.
/// `LiveEventModelTests` plays the same random steps against a real event and this model and
/// compares what both logged.
///
/// The rules it states:
///
/// - Registrations are numbered in the order they are made. A send queues the event with the
///   number of registrations made so far; the event goes only to registrations below it.
/// - Active: `observeForever` always; a plain owner while it lives; a lifecycle owner while
///   `.started` or `.resumed`. `.destroyed` ends the owner's registrations; observing with a
///   destroyed owner is ignored. A dead owner is never called.
/// - One delivery loop at a time. Before each queued event, if events are kept and some
///   registration is active, the first active one (in registration order) receives the kept
///   events, oldest first, while it stays active; the rest stay kept. Then the next queued
///   event goes to each of its registrations that is live and active when reached, in order.
///   An event that reached none is kept (policy `.keep`) or dropped (`.drop`).
/// - A send, a registration with an active owner or a lifecycle becoming active while the loop
///   runs only leaves work for the loop; outside it, they start the loop (the last two only
///   when events are kept).
/// - An owner is held weakly: dropped by the test it dies at once, unless it is held: while one
///   of its observers is being called, and while `observe(owner:)` runs with it (the caller
///   holds it, and kept events may be delivered then). It dies when the last hold ends.
final class EventReferenceModel {
    /// Something done to the event, at the top level or from inside an observer.
    enum Action: Equatable, CustomStringConvertible {
        /// Registers observer `observer` (created at its first observation) with `owner`.
        case observe(observer: Int, owner: ReferenceModel.OwnerChoice)
        case remove(observer: Int)
        /// `removeObservers(owner:)`; skipped if the test dropped the owner.
        case removeObservers(owner: Int)
        case send(Int)
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
            case .send(let value): "send \(value)"
            case .move(let owner, let state): "move O\(owner) to .\(state)"
            case .drop(let owner): "drop O\(owner)"
            case .query: "query hasObservers / hasActiveObservers"
            }
        }
    }

    /// One step of a sequence.
    typealias Step = ModelStep<Action>

    /// What both the real event and the model log, in order.
    enum Event: Equatable, CustomStringConvertible {
        case delivered(observer: Int, value: Int)
        case hasObservers(Bool)
        case hasActiveObservers(Bool)

        var description: String {
            switch self {
            case .delivered(let observer, let value): "#\(observer) <- \(value)"
            case .hasObservers(let value): "hasObservers \(value)"
            case .hasActiveObservers(let value): "hasActiveObservers \(value)"
            }
        }
    }

    struct Owner {
        let kind: ReferenceModel.OwnerKind
        var state: Lifecycle.State
        var isDropped = false
        var isAlive = true
    }

    final class Registration {
        let observer: Int
        /// nil for `observeForever`.
        let owner: Int?
        let number: Int
        var isLive = true
        var isActive: Bool

        init(observer: Int, owner: Int?, number: Int, isActive: Bool) {
            self.observer = observer
            self.owner = owner
            self.number = number
            self.isActive = isActive
        }
    }

    /// Counts of what the sequences exercised, to check that the generator reaches every rule.
    struct Coverage {
        var deliveries = 0
        var queuedSends = 0
        var keptHandOffs = 0
        var interruptedHandOffs = 0
        var keptOrDropped = 0
        var lateRegistrationsSkipped = 0
        var deadOwnersSkipped = 0
        var destroyedEnds = 0
        var ignoredObservations = 0

        mutating func add(_ other: Coverage) {
            deliveries += other.deliveries
            queuedSends += other.queuedSends
            keptHandOffs += other.keptHandOffs
            interruptedHandOffs += other.interruptedHandOffs
            keptOrDropped += other.keptOrDropped
            lateRegistrationsSkipped += other.lateRegistrationsSkipped
            deadOwnersSkipped += other.deadOwnersSkipped
            destroyedEnds += other.destroyedEnds
            ignoredObservations += other.ignoredObservations
        }
    }

    // MARK: State

    let policy: UnobservedEventPolicy
    private(set) var registrations: [Registration] = []
    private(set) var owners: [Int: Owner] = [:]
    /// Owners in the order they were made.
    private(set) var ownerIds: [Int] = []
    /// Observers that exist (were observed at least once), in the order they were made.
    private(set) var observerIds: [Int] = []
    private(set) var coverage = Coverage()
    private var log: [Event] = []
    private var knownObservers: Set<Int> = []
    private var scripts: [Int: [[Action]]] = [:]
    private var queue: [(value: Int, registeredBefore: Int)] = []
    private var kept: [Int] = []
    private var isDelivering = false
    /// Owners held alive: the owner of the observer being called, and the owner being
    /// registered (once per hold).
    private var heldOwners: [Int] = []

    init(policy: UnobservedEventPolicy) {
        self.policy = policy
    }

    // MARK: Queries for the generator

    func owner(_ id: Int) -> Owner? { owners[id] }

    /// The live registration of `observer`, if any.
    func registration(of observer: Int) -> Registration? {
        registrations.last { $0.observer == observer && $0.isLive }
    }

    /// Whether `owner` (nil: forever) is alive.
    func isAlive(_ owner: Int?) -> Bool {
        guard let owner else { return true }
        return owners[owner]?.isAlive ?? false
    }

    func takeLog() -> [Event] {
        defer { log.removeAll(keepingCapacity: true) }
        return log
    }

    // MARK: Steps

    func apply(_ step: Step) {
        switch step {
        case .perform(let action): perform(action)
        case .arm(let observer, let actions): scripts[observer, default: []].append(actions)
        }
    }

    func perform(_ action: Action) {
        switch action {
        case .observe(let observer, let choice):
            observe(observer, choice)
        case .remove(let observer):
            registration(of: observer)?.isLive = false
        case .removeObservers(let owner):
            guard let record = owners[owner], !record.isDropped else { return }
            for registration in registrations where registration.owner == owner { registration.isLive = false }
        case .send(let value):
            if isDelivering { coverage.queuedSends += 1 }
            queue.append((value, registrations.count))
            deliverQueued()
        case .move(let owner, let state):
            move(owner, to: state)
        case .drop(let owner):
            guard owners[owner]?.isDropped == false else { return }
            owners[owner]!.isDropped = true
            if !heldOwners.contains(owner) { owners[owner]!.isAlive = false }
        case .query:
            let live = registrations.filter { $0.isLive && isAlive($0.owner) }
            log.append(.hasObservers(!live.isEmpty))
            log.append(.hasActiveObservers(live.contains { $0.isActive }))
        }
    }

    // MARK: Rules

    private func observe(_ observer: Int, _ choice: ReferenceModel.OwnerChoice) {
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
            if isAlive(existing.owner) {
                precondition(existing.owner == owner, "EventReferenceModel: the generator re-registered #\(observer) with another owner")
                return  // same owner: nothing happens
            }
            existing.isLive = false  // its owner is gone: free to register again
        }
        var isActive = true
        if let owner, owners[owner]!.kind == .lifecycle {
            let state = owners[owner]!.state
            if state == .destroyed {
                coverage.ignoredObservations += 1
                return
            }
            isActive = state.isActive
        }
        registrations.append(Registration(observer: observer, owner: owner, number: registrations.count, isActive: isActive))
        if isActive, !kept.isEmpty { holding(owner) { deliverQueued() } }
    }

    /// Runs `body` with `owner` (nil: none) held alive.
    private func holding(_ owner: Int?, _ body: () -> Void) {
        guard let owner else { return body() }
        heldOwners.append(owner)
        body()
        heldOwners.remove(at: heldOwners.lastIndex(of: owner)!)
        if owners[owner]!.isDropped, !heldOwners.contains(owner) { owners[owner]!.isAlive = false }
    }

    private func makeOwner(_ id: Int, _ owner: Owner) {
        precondition(owners[id] == nil, "EventReferenceModel: owner O\(id) made twice")
        owners[id] = owner
        ownerIds.append(id)
    }

    private func move(_ owner: Int, to state: Lifecycle.State) {
        guard let record = owners[owner], record.kind == .lifecycle, !record.isDropped,
              record.state != .destroyed, record.state != state
        else { return }
        owners[owner]!.state = state
        var becameActive = false
        for registration in registrations where registration.isLive && registration.owner == owner {
            if state == .destroyed {
                registration.isLive = false
                coverage.destroyedEnds += 1
            } else if registration.isActive != state.isActive {
                registration.isActive = state.isActive
                becameActive = becameActive || state.isActive
            }
        }
        if becameActive, !kept.isEmpty { deliverQueued() }
    }

    private func deliverQueued() {
        guard !isDelivering else { return }
        isDelivering = true
        while true {
            if !kept.isEmpty, let receiver = registrations.first(where: canReceive) {
                handKept(to: receiver)
                continue
            }
            guard !queue.isEmpty else { break }
            let (value, registeredBefore) = queue.removeFirst()
            var reached = false
            var index = 0
            while index < registrations.count {
                let registration = registrations[index]
                index += 1
                guard registration.number < registeredBefore else {
                    if registration.isLive { coverage.lateRegistrationsSkipped += 1 }
                    continue
                }
                if canReceive(registration) {
                    call(registration, value)
                    reached = true
                }
            }
            if !reached {
                coverage.keptOrDropped += 1
                if policy == .keep { kept.append(value) }
            }
        }
        isDelivering = false
    }

    private func handKept(to receiver: Registration) {
        coverage.keptHandOffs += 1
        while !kept.isEmpty, canReceive(receiver) {
            call(receiver, kept.removeFirst())
        }
        if !kept.isEmpty { coverage.interruptedHandOffs += 1 }
    }

    private func canReceive(_ registration: Registration) -> Bool {
        guard registration.isLive, registration.isActive else { return false }
        if !isAlive(registration.owner) {
            coverage.deadOwnersSkipped += 1
            return false
        }
        return true
    }

    private func call(_ registration: Registration, _ value: Int) {
        coverage.deliveries += 1
        log.append(.delivered(observer: registration.observer, value: value))
        holding(registration.owner) { runScript(of: registration.observer) }
    }

    private func runScript(of observer: Int) {
        guard var batches = scripts[observer], !batches.isEmpty else { return }
        let batch = batches.removeFirst()
        scripts[observer] = batches
        for action in batch { perform(action) }
    }
}
