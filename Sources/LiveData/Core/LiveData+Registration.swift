// The bookkeeping behind `observe`, `remove` and lifecycle changes: registering, ending a
// registration, counting active observers for `onActive()` / `onInactive()`, and compacting
// the observer list.

/// An observer registered with a holder other than its home, and the stand-in that represents
/// it there (sharing its closure). The entry keeps the original alive, so its identity (the
/// key) cannot be reused while the entry exists.
@usableFromInline
struct StandIn<Value> {
    @usableFromInline let original: Observer<Value?>
    @usableFromInline let observer: Observer<Value?>

    @usableFromInline
    init(original: Observer<Value?>, observer: Observer<Value?>) {
        self.original = original
        self.observer = observer
    }
}

extension LiveData {
    /// The live registration of `observer` here: the observer itself, or its stand-in.
    @inlinable
    final func registration(of observer: Observer<Value?>) -> Observer<Value?>? {
        if observer.home == identity { return observer }
        if standIns.isEmpty { return nil }
        return standInRegistration(of: observer)
    }

    /// Ends the registration of the stand-in of `observer`, if it has one here.
    @usableFromInline
    final func removeStandIn(of observer: Observer<Value?>) {
        guard let registered = standInRegistration(of: observer) else { return }
        end(registered)
    }

    @usableFromInline
    final func standInRegistration(of observer: Observer<Value?>) -> Observer<Value?>? {
        guard let standIn = standIns[ObjectIdentifier(observer)] else { return nil }
        guard standIn.observer.home == identity else {
            standIns[ObjectIdentifier(observer)] = nil
            return nil
        }
        return standIn.observer
    }

    @inlinable
    final func register(_ observer: Observer<Value?>, owner: AnyObject?) {
        if let existing = registration(of: observer) {
            if existing.owner?.isGone == true {
                end(existing)  // its owner is gone: the observer is free to register again
            } else {
                let sameOwner: Bool
                if let owner { sameOwner = existing.owner?.refers(to: owner) == true } else { sameOwner = existing.owner == nil }
                precondition(
                    sameOwner,
                    "LiveData: this Observer is already registered \(existing.owner != nil ? "with another owner" : "with observeForever"); one observer can have only one owner per LiveData. Create a new Observer, or remove(observer:) first."
                )
                return
            }
        }
        add(observer, owner: owner)
    }

    /// Registers `observer`, which has no live registration here: a new one, or one whose
    /// registration has ended.
    @inlinable
    final func add(_ observer: Observer<Value?>, owner: AnyObject?) {
        if let owner {
            add(observer, ownedBy: owner)
        } else {
            append(observer, owner: nil, isActive: true)
        }
    }

    /// Registers `observer`, which has no live registration here, bound to `owner`; does nothing
    /// when `owner`'s lifecycle is destroyed.
    @inlinable
    final func add(_ observer: Observer<Value?>, ownedBy owner: AnyObject) {
        // Nil for a new owner whose lifecycle is destroyed: ignored.
        guard let reference = reference(for: owner) else { return }
        var isActive = true
        if let state = reference.lifecycleState {
            // A destroyed lifecycle ignores new observers.
            guard state != .destroyed else { return }
            if !reference.isListening { listen(toLifecycleOf: reference) }
            isActive = state.isActive
        }
        append(observer, owner: consume reference, isActive: isActive)
    }

    /// Appends the registration of `observer` (or of a stand-in, if its home is another holder)
    /// bound to `reference` (nil: `observeForever`), active or not.
    @inlinable
    final func append(_ observer: Observer<Value?>, owner reference: consuming OwnerReference?, isActive: Bool) {
        if observer.home == 0 {
            enroll(observer, owner: reference, isActive: isActive)
        } else {
            let standIn = Observer(update: observer.update)
            standIns[ObjectIdentifier(observer)] = StandIn(original: observer, observer: standIn)
            enroll(standIn, owner: reference, isActive: isActive)
        }
    }

    /// Appends `registered`, an observer whose home is to be this holder.
    @inlinable
    final func enroll(_ registered: Observer<Value?>, owner reference: consuming OwnerReference?, isActive: Bool) {
        registered.home = identity
        reference?.registrationCount += 1
        registered.owner = consume reference
        registered.slot = observers.count
        registered.lastVersion = .max  // nothing reaches it until it is fully registered
        registered.hasReceived = false
        registered.isActive = false
        observers.append(registered)
        guard isActive else {
            registered.lastVersion = version
            return
        }
        registered.isActive = true
        changeActiveCount(by: 1)
        // Values set by `onActive()` above came after registration, but registering delivers
        // nothing by itself: the observer starts from the version it registered at. (An explicit
        // `dispatch` from `onActive()` has already lowered the mark, and is respected.)
        if registered.lastVersion == .max { registered.lastVersion = version }
    }

    /// Starts hearing the state changes of the lifecycle of `reference`'s owner.
    @usableFromInline
    final func listen(toLifecycleOf reference: OwnerReference) {
        reference.lifecycle?.addListener(self)
        reference.isListening = true
    }

    /// The one reference of `owner` in this holder, made if it has none; nil when it has none
    /// and its lifecycle is destroyed (nothing is made for it, not even a weak reference).
    ///
    /// Stops the program when `owner` is being deallocated: registering from an owner's `deinit`
    /// (see ``OwnerReference``).
    @inlinable
    final func reference(for owner: AnyObject) -> OwnerReference? {
        if let latest = latestOwner, latest.refers(to: owner) { return latest }
        return lookUpReference(for: owner)
    }

    @usableFromInline
    final func lookUpReference(for owner: AnyObject) -> OwnerReference? {
        let key = ObjectIdentifier(owner)
        if let known = ownerReferences[key], known.refers(to: owner) {
            latestOwner = known
            return known
        }
        // None, or a stale one of a deallocated owner at the same address (its registrations
        // keep it until they end), or `owner` is being deallocated and its weak reference is nil.
        let lifecycle = (owner as? any LifecycleOwner)?.lifecycle
        if let lifecycle, lifecycle.state == .destroyed { return nil }
        // On Darwin, forming the weak reference to an Objective-C owner in its deinit traps here.
        let reference = OwnerReference(owner, lifecycle: lifecycle)
        precondition(
            !reference.isGone,
            "LiveData: observe(owner:) was called with an owner that is being deallocated (from its deinit, or from code its deinit runs); an owner cannot be observed once its deinit has started. Register earlier, or set the owner's lifecycle to .destroyed first, which makes the holder ignore it."
        )
        ownerReferences[key] = reference
        latestOwner = reference
        return reference
    }

    /// The reference whose registrations `removeObservers(owner:)` ends: the one this holder made
    /// last for an owner at `owner`'s address, if it is `owner`'s.
    ///
    /// A reference whose owner is alive is `owner`'s only if it refers to `owner`. One whose owner
    /// is gone is `owner`'s when `owner` is being deallocated, as in an owner's `deinit` that
    /// removes its own observers; but a new object may sit at a gone owner's address. A
    /// ``LifecycleOwner`` tells itself apart by its lifecycle, which the reference holds (so no
    /// other lifecycle can take its address). A plain object cannot: one that never registered
    /// here, at the address of a gone owner whose observers the holder has not found gone yet,
    /// ends those observers (they would never be called again). A stale reference that a newer
    /// owner at the same address replaced is never `owner`'s.
    @usableFromInline
    final func referenceForRemoval(of owner: AnyObject) -> OwnerReference? {
        guard let reference = ownerReferences[ObjectIdentifier(owner)] else { return nil }
        if let alive = reference.object { return alive === owner ? reference : nil }
        if let lifecycle = reference.lifecycle {
            return (owner as? any LifecycleOwner)?.lifecycle === lifecycle ? reference : nil
        }
        return reference
    }

    /// Ends the registration of `observer` (registered here directly): it is not called again,
    /// and if it was active the active count drops.
    @inlinable
    final func end(_ observer: Observer<Value?>) {
        guard observer.home == identity else { return }
        observer.home = 0
        endedCount += 1
        if let reference = observer.owner {
            reference.registrationCount -= 1
            observer.owner = nil
        }
        if observer.isActive {
            observer.isActive = false
            changeActiveCount(by: -1)
        }
        if endedCount * 2 >= observers.count { compact() }
    }

    /// Calls `onActive()` / `onInactive()` for each crossing of zero, also when those callbacks
    /// add or remove observers themselves (the count is re-read until it settles).
    @inlinable
    final func changeActiveCount(by delta: Int) {
        let previous = activeCount
        activeCount += delta
        // The usual case, inlined: no crossing of zero, so no callback.
        guard !isChangingActiveState, (previous == 0) != (activeCount == 0) else { return }
        settleActiveCount(from: previous)
    }

    @usableFromInline
    final func settleActiveCount(from start: Int) {
        var previous = start
        isChangingActiveState = true
        defer { isChangingActiveState = false }
        while previous != activeCount {
            let becameActive = previous == 0 && activeCount > 0
            let becameInactive = previous > 0 && activeCount == 0
            previous = activeCount
            if becameActive {
                onActive()
            } else if becameInactive {
                onInactive()
            }
        }
    }

    /// Ends the registrations whose owner has been deallocated.
    final func pruneDeallocatedOwners() {
        iterate { observer in
            if observer.owner?.isGone == true { end(observer) }
        }
    }

    /// Runs `body` over the live observers in order, including ones registered meanwhile; the
    /// list is not compacted until every such loop has finished.
    @usableFromInline
    final func iterate(_ body: (Observer<Value?>) -> Void) {
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
    /// the generic array's value witnesses; never inlined, to keep the delivery loop small.)
    @inlinable @inline(never)
    final func compact() {
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

    /// Lets go of the owners pinned by the delivery that just ended. Unpinning may deallocate an
    /// owner, whose deinit may use this holder again: popping one at a time keeps the list
    /// consistent for a nested delivery.
    @usableFromInline
    final func unpinOwners() {
        while let reference = pinnedOwners.popLast() { reference.pinned = nil }
    }
}

extension LiveData: LifecycleListener {
    func lifecycle(_ lifecycle: Lifecycle, didChangeTo _: Lifecycle.State) {
        iterate { observer in
            guard let reference = observer.owner, reference.lifecycle === lifecycle else { return }
            // An observer called below may move the lifecycle again: act on the newest state.
            let state = lifecycle.state
            guard !reference.isGone, state != .destroyed else {
                end(observer)
                return
            }
            guard state.isActive != observer.isActive else { return }
            observer.isActive = state.isActive
            changeActiveCount(by: state.isActive ? 1 : -1)
            if state.isActive, observer.home == identity { dispatchValue(initiator: observer) }
        }
    }
}
