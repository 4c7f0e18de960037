/// The observers of one holder, a ``LiveData`` or a ``LiveEvent``: the part of observing that
/// does not depend on what is delivered, as androidx's `ObserverWrapper` is for every holder.
///
/// ## The contract
///
/// - **Registrations.** An observer is registered with an owner (held weakly, through one
///   ``OwnerReference`` per owner) or forever (no owner). The list keeps registration order.
///   One observer has at most one registration per holder: registering it again with the same
///   owner does nothing, with another owner (or forever after an owner, or the reverse) stops the
///   program. An observer registered with a second holder is represented there by a stand-in
///   that shares its closure, so that its own fields serve its first (*home*) holder.
/// - **Active.** A registration of a ``LifecycleOwner`` is active while the lifecycle is started
///   or resumed, and ``Lifecycle/State-swift.enum/destroyed`` ends it; one whose owner is
///   already destroyed is never made. Any other registration is active while it lasts.
/// - **Ending.** A registration ends when it is removed (by observer, or by owner), when its
///   lifecycle is destroyed, or when its owner is found deallocated; an ended one is never
///   called again, and stays in the list (so that no running loop shifts) until `compact()`
///   drops it, which waits for every loop over the list to finish.
/// - **Activity.** The host hears ``ObserverRegistryHost/registryDidBecomeActive()`` when the
///   number of active registrations goes from 0 to 1 and
///   ``ObserverRegistryHost/registryDidBecomeInactive()`` when it goes back to 0, also when
///   those callbacks add or remove registrations themselves.
///
/// What is delivered, when, and to whom is the host's: it loops over ``observers`` itself, and
/// an entry is live there while `observer.home == identity && observer.slot == index`. The
/// registry never calls an observer. It calls its host only from the methods that take one.
///
/// The fields read on every registration, removal or delivery are `@exclusivity(unchecked)`:
/// measured field by field or in small groups in LiveDataVersus (Benchmarks/README.md, "The
/// unsafe constructs"), one run-time check costs about 80 instructions per register + remove
/// pair (about 1,380 in all) or per set. That is sound because every access here is
/// instantaneous (none is held across a call to an observer or to the host) and isolated to
/// the main actor, so no two can overlap. `standIns` and `ownerReferences`, read only by a
/// stand-in's registration, a lookup of a new owner and compaction, keep the check: without it
/// nothing measurable was gained.
@usableFromInline @MainActor
final class ObserverRegistry<Host: ObserverRegistryHost> {
    @usableFromInline typealias Element = Host.Element

    /// The number the registered observers name as their home (`Observer.home`).
    @usableFromInline let identity = HolderIdentity.next()
    /// The observers registered directly, in registration order. An entry is live while
    /// `observer.home == identity && observer.slot == index`; ended ones stay until
    /// `compact()` drops them, so removal is O(1) and never shifts a running loop.
    @exclusivity(unchecked) @usableFromInline var observers: ContiguousArray<Observer<Element>> = []
    /// Stand-ins for observers whose home is another holder, by the original's identity.
    @usableFromInline var standIns: [ObjectIdentifier: StandIn<Element>] = [:]
    @exclusivity(unchecked) @usableFromInline var endedCount = 0
    @exclusivity(unchecked) @usableFromInline var activeCount = 0
    /// Loops over `observers` under way (the host's deliveries count too); compaction waits for
    /// them to finish.
    @exclusivity(unchecked) @usableFromInline var iterationDepth = 0
    @exclusivity(unchecked) @usableFromInline var isChangingActiveState = false
    /// One reference per owner, so that a delivery can load each owner once.
    @usableFromInline var ownerReferences: [ObjectIdentifier: OwnerReference] = [:]
    /// The owner of the latest registration: the usual next one, found without a lookup.
    @exclusivity(unchecked) @usableFromInline var latestOwner: OwnerReference?

    /// An empty registry. (Holders are made on any thread; nothing here is shared until then.)
    @usableFromInline
    nonisolated init() {}

    /// Whether any observer is registered. Registrations of deallocated owners are dropped first.
    @usableFromInline
    func hasObservers(host: Host) -> Bool {
        pruneDeallocatedOwners(host: host)
        return observers.count > endedCount
    }

    /// Whether any registered observer is active. Registrations of deallocated owners are dropped
    /// first.
    @usableFromInline
    func hasActiveObservers(host: Host) -> Bool {
        pruneDeallocatedOwners(host: host)
        return activeCount > 0
    }

    // MARK: Registering

    /// The live registration of `observer` here: the observer itself, or its stand-in.
    @inlinable
    func registration(of observer: Observer<Element>) -> Observer<Element>? {
        if observer.home == identity { return observer }
        if standIns.isEmpty { return nil }
        return standInRegistration(of: observer)
    }

    /// Registers `observer` bound to `owner` (nil: forever) unless it is registered already.
    ///
    /// - Returns: Whether a registration was made: false when it was registered already with the
    ///   same owner, or `owner`'s lifecycle is destroyed.
    @inlinable @discardableResult
    func register(_ observer: Observer<Element>, owner: AnyObject?, host: Host) -> Bool {
        if let existing = registration(of: observer) {
            if existing.owner?.isGone == true {
                end(existing, host: host)  // its owner is gone: the observer is free to register again
            } else {
                let sameOwner: Bool
                if let owner { sameOwner = existing.owner?.refers(to: owner) == true } else { sameOwner = existing.owner == nil }
                precondition(
                    sameOwner,
                    "\(Host.holderName): this Observer is already registered \(existing.owner != nil ? "with another owner" : "with observeForever"); one observer can have only one owner per \(Host.holderName). Create a new Observer, or remove(observer:) first."
                )
                return false
            }
        }
        if let owner { return add(observer, ownedBy: owner, host: host) }
        append(observer, owner: nil, isActive: true, host: host)
        return true
    }

    /// Registers `observer`, which has no live registration here, bound to `owner`; does nothing
    /// when `owner`'s lifecycle is destroyed.
    ///
    /// - Returns: Whether a registration was made: false when the owner's lifecycle is destroyed.
    @inlinable @discardableResult
    func add(_ observer: Observer<Element>, ownedBy owner: AnyObject, host: Host) -> Bool {
        // Nil for a new owner whose lifecycle is destroyed: ignored.
        guard let reference = reference(for: owner) else { return false }
        var isActive = true
        if let state = reference.lifecycleState {
            // A destroyed lifecycle ignores new observers.
            guard state != .destroyed else { return false }
            if !reference.isListening { listen(toLifecycleOf: reference, host: host) }
            isActive = state.isActive
        }
        append(observer, owner: consume reference, isActive: isActive, host: host)
        return true
    }

    /// Appends the registration of `observer` (or of a stand-in, if its home is another holder)
    /// bound to `reference` (nil: forever), active or not.
    ///
    /// The registration's `lastVersion` starts at the host's ``ObserverRegistryHost/registrationMark``.
    @inlinable
    func append(_ observer: Observer<Element>, owner reference: consuming OwnerReference?, isActive: Bool, host: Host) {
        if observer.home == 0 {
            enroll(observer, owner: reference, isActive: isActive, host: host)
        } else {
            let standIn = Observer(update: observer.update)
            standIns[ObjectIdentifier(observer)] = StandIn(original: observer, observer: standIn)
            enroll(standIn, owner: reference, isActive: isActive, host: host)
        }
    }

    /// Appends `registered`, an observer whose home is to be this registry.
    @inlinable
    func enroll(_ registered: Observer<Element>, owner reference: consuming OwnerReference?, isActive: Bool, host: Host) {
        registered.home = identity
        reference?.registrationCount += 1
        registered.owner = consume reference
        registered.slot = observers.count
        registered.lastVersion = .max  // nothing reaches it until it is fully registered
        registered.hasReceived = false
        registered.isActive = false
        observers.append(registered)
        guard isActive else {
            registered.lastVersion = host.registrationMark
            return
        }
        registered.isActive = true
        changeActiveCount(by: 1, host: host)
        // Values set by the host's `registryDidBecomeActive()` above came after registration,
        // but registering delivers nothing by itself: the observer starts from the mark it
        // registered at. (An explicit `dispatch` from there has already lowered it, and is
        // respected.)
        if registered.lastVersion == .max { registered.lastVersion = host.registrationMark }
    }

    // MARK: Ending

    /// Unregisters `observer` (or its stand-in). Does nothing if it is not registered.
    @inlinable
    func remove(_ observer: Observer<Element>, host: Host) {
        if observer.home == identity {
            end(observer, host: host)
        } else if !standIns.isEmpty, let registered = standInRegistration(of: observer) {
            end(registered, host: host)
        }
    }

    /// Ends the registration of `observer` (registered here directly): it is not called again,
    /// and if it was active the active count drops.
    @inlinable
    func end(_ observer: Observer<Element>, host: Host) {
        guard observer.home == identity else { return }
        observer.home = 0
        endedCount += 1
        if let reference = observer.owner {
            reference.registrationCount -= 1
            observer.owner = nil
        }
        if observer.isActive {
            observer.isActive = false
            changeActiveCount(by: -1, host: host)
        }
        if endedCount * 2 >= observers.count { compact() }
    }

    /// Ends the registrations whose owner has been deallocated.
    @usableFromInline
    func pruneDeallocatedOwners(host: Host) {
        iterate { observer in
            if observer.owner?.isGone == true { end(observer, host: host) }
        }
    }

    // MARK: Activity

    /// Tells the host of each crossing of zero, also when its callbacks add or remove observers
    /// themselves (the count is re-read until it settles).
    @inlinable
    func changeActiveCount(by delta: Int, host: Host) {
        let previous = activeCount
        activeCount += delta
        // The usual case, inlined: no crossing of zero, so no callback.
        guard !isChangingActiveState, (previous == 0) != (activeCount == 0) else { return }
        settleActiveCount(from: previous, host: host)
    }

    @usableFromInline
    func settleActiveCount(from start: Int, host: Host) {
        var previous = start
        isChangingActiveState = true
        defer { isChangingActiveState = false }
        while previous != activeCount {
            let becameActive = previous == 0 && activeCount > 0
            let becameInactive = previous > 0 && activeCount == 0
            previous = activeCount
            if becameActive {
                host.registryDidBecomeActive()
            } else if becameInactive {
                host.registryDidBecomeInactive()
            }
        }
    }

    // MARK: The list

    /// Runs `body` over the live observers in order, including ones registered meanwhile; the
    /// list is not compacted until every such loop has finished.
    @usableFromInline
    func iterate(_ body: (Observer<Element>) -> Void) {
        iterationDepth += 1
        var index = 0
        while index < observers.count {
            let observer = observers[index]
            if observer.home == identity, observer.slot == index { body(observer) }
            index += 1
        }
        iterationDepth -= 1
        if endedCount > 0 { compact() }
    }

    /// Drops ended observers from the list (letting go of their closures), renumbers the rest,
    /// and forgets stand-ins and owner references nothing uses. Waits while a loop runs.
    /// (Inlinable so that it is specialized: unspecialized, every element it moves goes through
    /// the generic array's value witnesses; never inlined, to keep the delivery loops small.)
    @inlinable @inline(never)
    func compact() {
        guard iterationDepth == 0, endedCount > 0 else { return }
        var kept = 0
        for index in observers.indices {
            let observer = observers[index]
            guard observer.home == identity, observer.slot == index else { continue }
            observer.slot = kept
            observers[kept] = observer
            kept += 1
        }
        observers.removeLast(observers.count - kept)
        endedCount = 0
        if !standIns.isEmpty {
            standIns = standIns.filter { $0.value.observer.home == identity }
        }
        // Unused references: a few may stay, so that an owner that registers and removes
        // repeatedly keeps its reference; a gone owner's goes, as it can serve no one.
        if ownerReferences.count > kept + 16 || ownerReferences.values.contains(where: { $0.registrationCount == 0 && $0.isGone }) {
            ownerReferences = ownerReferences.filter { $0.value.registrationCount > 0 }
            if let latest = latestOwner, ownerReferences[latest.key] !== latest { latestOwner = nil }
        }
    }
}

/// A holder served by an ``ObserverRegistry``: what the registry tells it, and its name in the
/// messages of programming errors. The holder listens to its owners' lifecycles (the registry
/// adds it) and hands each change to ``ObserverRegistry/apply(_:host:)``.
@usableFromInline @MainActor
protocol ObserverRegistryHost: LifecycleListener {
    /// The type of the values its observers receive.
    associatedtype Element

    /// The holder's kind in messages: "LiveData", "LiveEvent".
    static var holderName: String { get }

    /// What a new registration's `lastVersion` starts at, read once it is registered (and
    /// after ``registryDidBecomeActive()``, if it made the count cross zero): a ``LiveData``'s
    /// version, a ``LiveEvent``'s number of events sent.
    var registrationMark: Int { get }

    /// The number of active registrations went from 0 to 1. May register or remove observers.
    func registryDidBecomeActive()

    /// The number of active registrations went back to 0. May register or remove observers.
    func registryDidBecomeInactive()

    /// `observer`, registered here directly, became active because its lifecycle did; called
    /// during the registry's loop over the lifecycle's registrations.
    func registry(didActivate observer: Observer<Element>)

}
