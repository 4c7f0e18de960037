/// An observable holder of a value that respects the lifecycle of its observers' owners.
///
/// A view model keeps a ``MutableLiveData`` private and exposes it as `LiveData`; a view
/// observes it with itself as the owner:
///
/// ```swift
/// viewModel.name.observe(owner: self) { name in label.text = name }
/// viewModel.name.dispatch()   // deliver the current value to the new observer
/// ```
///
/// ## The contract
///
/// - **Value.** A `LiveData<Value>` holds a `Value?` in ``data``: nil until a value is set
///   (unless created with ``init(data:)``).
/// - **Versions.** Every set bumps a version. Each registration remembers the newest version it
///   has received and never receives the same version twice, however often ``dispatch()`` runs.
/// - **Registering delivers nothing by itself.** A new observer receives values set after it
///   registered; call ``dispatch()`` (every observer that has received nothing yet) or
///   ``dispatch(initiator:)`` (just that one) to deliver the current value.
/// - **Owners.** An owner is any object, held weakly. Once it is deallocated its observers are
///   never called again, and their closures are released no later than the next set or dispatch.
///   A ``LifecycleOwner``'s observers are active only while its ``Lifecycle`` is
///   ``Lifecycle/State-swift.enum/started`` or ``Lifecycle/State-swift.enum/resumed``; an
///   observer that becomes active receives the latest value once if a value was set since it
///   registered that it has not received (values in between are skipped), and
///   ``Lifecycle/State-swift.enum/destroyed`` removes its observers at once. Any other owner is
///   active for as long as it lives; ``observeForever(_:)`` observers are always active.
/// - **Order and re-entrancy.** Observers are called in registration order, on the main actor,
///   never re-entrantly. A value set from inside an observer restarts the delivery after that
///   observer returns, so later observers see only the newest value. Observers may be added or
///   removed during a delivery; a removed observer is not called again.
/// - **Activity.** ``onActive()`` runs when the number of active observers goes from 0 to 1 and
///   ``onInactive()`` when it goes back to 0. Subclass to start and stop work with them.
///
/// ## Programming errors
///
/// Registering one ``Observer`` with two different owners of the same holder (or with an owner
/// and with ``observeForever(observer:)``) stops the program with a message naming the mistake,
/// as Android's `LiveData` throws: the registration would otherwise be silently ambiguous.
/// Registering it again with the same owner does nothing. ``dispatch(initiator:)`` with an
/// observer that is not registered delivers nothing and returns `false`.
///
/// ## Threading
///
/// Everything here runs on the main actor, so observers can update views directly. To set a
/// value from another thread or task, use ``MutableLiveData/postValue(_:)``.
@MainActor
open class LiveData<Value> {
    /// The value set last; nil when none was set (or nil was).
    final var storedData: Value?

    /// Bumped by every set; `-1` while no value was ever set.
    final private(set) var version: Int

    /// Registrations in registration order. Ended ones stay as empty shells (their `observer`
    /// is nil) until `compactIfPossible()` drops them, so removal is O(1) and never shifts
    /// indices under a running delivery.
    private final var registrations: ContiguousArray<Registration<Value>> = []
    /// Live registrations by observer identity, for `remove(observer:)` in O(1).
    private final var registrationsByObserver: [ObjectIdentifier: Registration<Value>] = [:]
    private final var endedCount = 0
    private final var activeCount = 0
    /// Loops over `registrations` under way; compaction waits for them to finish.
    private final var iterationDepth = 0
    private final var isDispatching = false
    private final var isDispatchInvalidated = false
    private final var isChangingActiveState = false
    /// One reference per owner with live registrations, so that a delivery pins each owner once.
    private final var ownerReferences: [ObjectIdentifier: OwnerReference] = [:]
    /// The owner of the latest registration: the usual next one, found without a lookup.
    private final var latestOwner: OwnerReference?
    /// Numbers the outermost deliveries, so each owner is loaded and pinned once per delivery.
    private final var deliveryNumber = 0
    /// The owners pinned by the delivery under way, unpinned when it ends.
    private final var pinnedOwners: [OwnerReference] = []

    /// Creates a holder with no value: ``data`` is nil and ``dispatch()`` delivers nothing until a
    /// value is set.
    nonisolated public init() {
        version = -1
    }

    /// Creates a holder that starts with `data`; the first ``dispatch()`` delivers it.
    public init(data: Value?) {
        storedData = data
        version = 0
    }

    /// The current value, or nil when none was set.
    public var data: Value? { storedData }

    /// Whether any observer is registered. Registrations of deallocated owners are dropped first.
    public final var hasObservers: Bool {
        pruneDeallocatedOwners()
        return !registrationsByObserver.isEmpty
    }

    /// Whether any registered observer is active. Registrations of deallocated owners are dropped
    /// first.
    public final var hasActiveObservers: Bool {
        pruneDeallocatedOwners()
        return activeCount > 0
    }

    // MARK: Observing

    /// Registers `update` bound to `owner` and returns the observer that wraps it.
    ///
    /// The owner is held weakly: once it is deallocated `update` is never called again. When the
    /// owner is a ``LifecycleOwner``, `update` runs only while its lifecycle is started or resumed.
    /// An owner whose lifecycle is already destroyed is ignored. Registering delivers nothing:
    /// call ``dispatch()`` or ``dispatch(initiator:)`` for the current value.
    ///
    /// - Returns: The observer, for ``remove(observer:)``; ignore it if you never remove.
    @discardableResult
    public final func observe(owner: AnyObject, _ update: @escaping (Value?) -> Void) -> Observer<Value?> {
        let observer = Observer<Value?>(update: update)
        register(observer, owner: owner)
        return observer
    }

    /// Registers `observer` bound to `owner`, as ``observe(owner:_:)`` does.
    ///
    /// Registering an observer again with the same owner does nothing; with a different owner (or
    /// after ``observeForever(observer:)``) it is a programming error that stops the program.
    public final func observe(owner: AnyObject, observer: Observer<Value?>) {
        register(observer, owner: owner)
    }

    /// Registers `update` with no owner: it is always active and stays registered until
    /// ``remove(observer:)``. Registering delivers nothing by itself.
    ///
    /// - Returns: The observer, for ``remove(observer:)``.
    @discardableResult
    public final func observeForever(_ update: @escaping (Value?) -> Void) -> Observer<Value?> {
        let observer = Observer<Value?>(update: update)
        register(observer, owner: nil)
        return observer
    }

    /// Registers `observer` with no owner, as ``observeForever(_:)`` does.
    ///
    /// Registering it again this way does nothing; if it is registered with an owner, this is a
    /// programming error that stops the program.
    public final func observeForever(observer: Observer<Value?>) {
        register(observer, owner: nil)
    }

    /// Unregisters `observer`; it is not called again, even from a delivery under way. Does
    /// nothing if it is not registered.
    public final func remove(observer: Observer<Value?>) {
        guard let registration = registrationsByObserver[ObjectIdentifier(observer)] else { return }
        end(registration)
    }

    /// Unregisters every observer bound to `owner`.
    public final func removeObservers(owner: AnyObject) {
        iterate { registration in
            if registration.observer != nil, let reference = registration.owner, reference.object === owner {
                end(registration)
            }
        }
    }

    // MARK: Delivering

    /// Delivers the current value to every active observer that has not received it yet: the
    /// observers registered since the last dispatch. An inactive one receives it when it becomes
    /// active. No observer receives a version twice.
    public final func dispatch() {
        iterate { registration in
            if registration.observer != nil, !registration.hasReceived { registration.lastVersion = -1 }
        }
        dispatchValue(initiator: nil)
    }

    /// Delivers the current value to `initiator` only, if it is registered here and has not
    /// received it yet; if it is inactive, it receives it when it becomes active.
    ///
    /// - Returns: Whether `initiator` is registered with this holder. When it is not (never
    ///   registered, removed, or its owner gone or destroyed) nothing is delivered.
    @discardableResult
    public final func dispatch(initiator: Observer<Value?>) -> Bool {
        guard let registration = registrationsByObserver[ObjectIdentifier(initiator)] else { return false }
        guard !registration.hasDeallocatedOwner else {
            end(registration)
            return false
        }
        if !registration.hasReceived { registration.lastVersion = -1 }
        dispatchValue(initiator: registration)
        return true
    }

    /// Stores `value`, bumps the version and delivers it to the active observers.
    final func setValue(_ value: Value?) {
        storedData = value
        version += 1
        dispatchValue(initiator: nil)
    }

    // MARK: Activity

    /// Called when the number of active observers goes from 0 to 1. Does nothing by default.
    ///
    /// Override to start work that only matters while someone is watching (syncing with a
    /// server, listening to a sensor). Runs on the main actor; it may set values.
    open func onActive() {}

    /// Called when the number of active observers goes from 1 to 0. Does nothing by default.
    ///
    /// Override to stop what ``onActive()`` started.
    open func onInactive() {}

    // MARK: Registration bookkeeping

    private final func register(_ observer: Observer<Value?>, owner: AnyObject?) {
        let key = ObjectIdentifier(observer)
        if let existing = registrationsByObserver[key] {
            if existing.hasDeallocatedOwner {
                end(existing)  // its owner is gone: the observer is free to register again
            } else {
                precondition(
                    existing.isAttached(to: owner),
                    "LiveData: this Observer is already registered \(existing.owner != nil ? "with another owner" : "with observeForever"); one observer can have only one owner per LiveData. Create a new Observer, or remove(observer:) first."
                )
                return
            }
        }
        var lifecycle: Lifecycle?
        var reference: OwnerReference?
        if let owner {
            reference = self.reference(for: owner)
            if reference?.hasLifecycle == true {
                lifecycle = (owner as? any LifecycleOwner)?.lifecycle
                if lifecycle?.state == .destroyed { return }
            }
        }
        let registration = Registration(
            observer: observer,
            owner: reference,
            version: .max  // nothing reaches it until it is fully registered (see below)
        )
        registrations.append(registration)
        registrationsByObserver[key] = registration
        if let reference {
            if reference.registrationCount == 0 { ownerReferences[reference.key] = reference }
            reference.registrationCount += 1
        }
        if let lifecycle {
            lifecycle.addListener(self)
            if lifecycle.state.isActive { activate(registration) }
        } else {
            activate(registration)
        }
        // Values set by `onActive()` above came after registration, but registering delivers
        // nothing by itself: the observer starts from the version it registered at. (An explicit
        // `dispatch` from `onActive()` has already lowered the mark, and is respected.)
        if registration.lastVersion == .max { registration.lastVersion = version }
    }

    /// The one reference of `owner` in this holder, made if it has none.
    private final func reference(for owner: AnyObject) -> OwnerReference {
        if let latest = latestOwner, latest.object === owner { return latest }
        let reference: OwnerReference
        if let known = ownerReferences[ObjectIdentifier(owner)], known.object === owner {
            reference = known
        } else {
            // None, or a stale one of a deallocated owner at the same address: its registrations
            // keep it until they end, but it is no longer found by that address.
            reference = OwnerReference(owner, lifecycle: (owner as? any LifecycleOwner)?.lifecycle)
        }
        latestOwner = reference
        return reference
    }

    /// Ends `registration`: releases its observer and, if it was active, lowers the active count.
    private final func end(_ registration: Registration<Value>) {
        guard let observer = registration.observer else { return }
        registration.observer = nil
        registrationsByObserver[ObjectIdentifier(observer)] = nil
        if let reference = registration.owner {
            reference.registrationCount -= 1
            if reference.registrationCount == 0, ownerReferences[reference.key] === reference {
                ownerReferences[reference.key] = nil
            }
        }
        endedCount += 1
        if registration.isActive {
            registration.isActive = false
            changeActiveCount(by: -1)
        }
        compactIfPossible()
    }

    private final func activate(_ registration: Registration<Value>) {
        registration.isActive = true
        changeActiveCount(by: 1)
    }

    /// Calls `onActive()` / `onInactive()` for each crossing of zero, also when those callbacks
    /// add or remove observers themselves (the count is re-read until it settles).
    private final func changeActiveCount(by delta: Int) {
        var previous = activeCount
        activeCount += delta
        guard !isChangingActiveState else { return }
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
    private final func pruneDeallocatedOwners() {
        iterate { registration in
            if registration.observer != nil, registration.hasDeallocatedOwner {
                end(registration)
            }
        }
    }

    /// Runs `body` over the registrations in order, including ones added meanwhile; the list is
    /// not compacted until every such loop has finished.
    private final func iterate(_ body: (Registration<Value>) -> Void) {
        iterationDepth += 1
        var index = 0
        while index < registrations.count {
            body(registrations[index])
            index += 1
        }
        iterationDepth -= 1
        compactIfPossible()
    }

    private final func compactIfPossible() {
        guard iterationDepth == 0, endedCount > 0, endedCount * 2 >= registrations.count else { return }
        registrations.removeAll { $0.observer == nil }
        endedCount = 0
    }

    // MARK: Delivery

    /// Android's dispatching / invalidated loop: a dispatch requested while one is running marks
    /// it invalid, and the running one starts over with every observer once the current observer
    /// returns. Nothing is ever delivered re-entrantly.
    private final func dispatchValue(initiator: Registration<Value>?) {
        if isDispatching {
            isDispatchInvalidated = true
            return
        }
        isDispatching = true
        iterationDepth += 1
        deliveryNumber &+= 1
        var initiator = initiator
        repeat {
            isDispatchInvalidated = false
            if let single = initiator {
                considerNotify(single)
                initiator = nil
            } else {
                var index = 0
                while index < registrations.count {
                    considerNotify(registrations[index])
                    if isDispatchInvalidated { break }
                    index += 1
                }
            }
        } while isDispatchInvalidated
        iterationDepth -= 1
        isDispatching = false
        // Unpinning may deallocate an owner, whose deinit may use this holder again: pop one at
        // a time so that a nested delivery finds a consistent list.
        while let reference = pinnedOwners.popLast() { reference.pinned = nil }
        compactIfPossible()
    }

    /// Delivers the current version to `registration` if it is live, its owner alive, it is
    /// active and it has not received this version.
    ///
    /// The first registration of an owner met by a delivery loads the weak reference and pins
    /// the owner until the delivery ends, so it cannot be deallocated while its observers run;
    /// before each call, an owner that only the pin still holds counts as deallocated.
    @inline(__always)
    private final func considerNotify(_ registration: Registration<Value>) {
        guard let observer = registration.observer else { return }
        if let reference = registration.owner {
            if reference.pinnedDelivery != deliveryNumber {
                guard reference.pin(for: deliveryNumber) else {
                    end(registration)
                    return
                }
                pinnedOwners.append(reference)
            }
            if reference.isReleased {
                end(registration)
                return
            }
        }
        guard registration.isActive, version > registration.lastVersion else { return }
        registration.lastVersion = version
        registration.hasReceived = true
        observer.update(storedData)
    }
}

extension LiveData: LifecycleListener {
    func lifecycle(_ lifecycle: Lifecycle, didChangeTo _: Lifecycle.State) {
        iterate { registration in
            guard registration.observer != nil, let reference = registration.owner,
                reference.lifecycle === lifecycle
            else { return }
            // An observer called below may move the lifecycle again: act on the newest state.
            let state = lifecycle.state
            guard !registration.hasDeallocatedOwner, state != .destroyed else {
                end(registration)
                return
            }
            guard state.isActive != registration.isActive else { return }
            if state.isActive {
                activate(registration)
                dispatchValue(initiator: registration)
            } else {
                registration.isActive = false
                changeActiveCount(by: -1)
            }
        }
    }
}
