// The owners' side of a registry: one reference per owner, removal by owner, the lifecycles'
// changes, and the stand-ins of observers whose home is another holder.

/// An observer registered with a holder other than its home, and the stand-in that represents
/// it there (sharing its closure). The entry keeps the original alive, so its identity (the
/// key) cannot be reused while the entry exists.
@usableFromInline
struct StandIn<Value> {
    @usableFromInline let original: Observer<Value>
    @usableFromInline let observer: Observer<Value>

    @usableFromInline
    init(original: Observer<Value>, observer: Observer<Value>) {
        self.original = original
        self.observer = observer
    }
}

extension ObserverRegistry {
    @usableFromInline
    func standInRegistration(of observer: Observer<Element>) -> Observer<Element>? {
        guard let standIn = standIns[ObjectIdentifier(observer)] else { return nil }
        guard standIn.observer.home == identity else {
            standIns[ObjectIdentifier(observer)] = nil
            return nil
        }
        return standIn.observer
    }

    /// Makes `host` hear the state changes of the lifecycle of `reference`'s owner.
    @usableFromInline
    func listen(toLifecycleOf reference: OwnerReference, host: Host) {
        reference.lifecycle?.addListener(host)
        reference.isListening = true
    }

    /// The one reference of `owner` here, made if it has none; nil when it has none and its
    /// lifecycle is destroyed (nothing is made for it, not even a weak reference).
    ///
    /// Stops the program when `owner` is being deallocated: registering from an owner's `deinit`
    /// (see ``OwnerReference``).
    @inlinable
    func reference(for owner: AnyObject) -> OwnerReference? {
        if let latest = latestOwner, latest.refers(to: owner) { return latest }
        return lookUpReference(for: owner)
    }

    @usableFromInline
    func lookUpReference(for owner: AnyObject) -> OwnerReference? {
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
            "\(Host.holderName): observe(owner:) was called with an owner that is being deallocated (from its deinit, or from code its deinit runs); an owner cannot be observed once its deinit has started. Register earlier, or set the owner's lifecycle to .destroyed first, which makes the \(Host.holderName) ignore it."
        )
        ownerReferences[key] = reference
        latestOwner = reference
        return reference
    }

    /// Ends every registration bound to `owner`. `owner` may be running its `deinit`.
    @usableFromInline
    func removeObservers(owner: AnyObject, host: Host) {
        guard let reference = referenceForRemoval(of: owner) else { return }
        iterate { observer in
            if observer.owner === reference { end(observer, host: host) }
        }
    }

    /// The reference whose registrations `removeObservers(owner:)` ends: the one this registry
    /// made last for an owner at `owner`'s address, if it is `owner`'s.
    ///
    /// A reference whose owner is alive is `owner`'s only if it refers to `owner`. One whose owner
    /// is gone is `owner`'s when `owner` is being deallocated, as in an owner's `deinit` that
    /// removes its own observers; but a new object may sit at a gone owner's address. A
    /// ``LifecycleOwner`` tells itself apart by its lifecycle, which the reference holds (so no
    /// other lifecycle can take its address). A plain object cannot: one that never registered
    /// here, at the address of a gone owner whose observers the registry has not found gone yet,
    /// ends those observers (they would never be called again). A stale reference that a newer
    /// owner at the same address replaced is never `owner`'s.
    @usableFromInline
    func referenceForRemoval(of owner: AnyObject) -> OwnerReference? {
        guard let reference = ownerReferences[ObjectIdentifier(owner)] else { return nil }
        if let alive = reference.object { return alive === owner ? reference : nil }
        if let lifecycle = reference.lifecycle {
            return (owner as? any LifecycleOwner)?.lifecycle === lifecycle ? reference : nil
        }
        return reference
    }

    /// Applies the new state of `lifecycle` to the registrations bound to it, in order: ends
    /// them when it is destroyed (or their owner gone), else makes them active or inactive.
    /// Each one that becomes active is handed to the host's
    /// ``ObserverRegistryHost/registry(didActivate:)`` at once.
    ///
    /// - Returns: Whether any registration became active.
    @usableFromInline @discardableResult
    func apply(_ lifecycle: Lifecycle, host: Host) -> Bool {
        var activated = false
        iterate { observer in
            guard let reference = observer.owner, reference.lifecycle === lifecycle else { return }
            // An observer called meanwhile may move the lifecycle again: act on the newest state.
            let state = lifecycle.state
            guard !reference.isGone, state != .destroyed else {
                end(observer, host: host)
                return
            }
            guard state.isActive != observer.isActive else { return }
            observer.isActive = state.isActive
            changeActiveCount(by: state.isActive ? 1 : -1, host: host)
            guard state.isActive else { return }
            activated = true
            if observer.home == identity { host.registry(didActivate: observer) }
        }
        return activated
    }
}
