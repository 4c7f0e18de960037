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
///   A delivery keeps each owner it reaches alive until the delivery ends, so an owner released
///   by an observer meanwhile is deallocated (and silent) from then on.
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
/// Registering it again with the same owner does nothing. Registering with an owner from inside
/// that owner's `deinit` stops the program too, on every platform (on Darwin the Objective-C
/// runtime already refuses a weak reference to an object being deallocated), unless the owner's
/// lifecycle is already destroyed, which makes the call ignored as usual.
/// ``dispatch(initiator:)`` with an observer that is not registered delivers nothing and returns
/// `false`.
///
/// ## Threading
///
/// Everything here runs on the main actor, so observers can update views directly. To set a
/// value from another thread or task, use ``MutableLiveData/postValue(_:)``.
@MainActor
open class LiveData<Value> {
    // The state below is `@usableFromInline` so that the delivery and registration paths, which
    // are `@inlinable`, are specialized for the client's `Value`: unspecialized generic code
    // pays a metadata lookup on nearly every step. The fields read on every delivery are
    // `@exclusivity(unchecked)`: measured in small groups in LiveDataVersus (Benchmarks/README.md,
    // "The unsafe constructs"), one run-time check costs about 80 instructions per set. That is
    // sound because every access here is instantaneous (none is held across a call to an
    // observer, `onActive()` or `onInactive()`) and isolated to the main actor, so no two can
    // overlap.

    /// The observers, their owners and which of them are active; shared with ``LiveEvent``.
    @usableFromInline final let registry = ObserverRegistry<LiveData<Value>>()
    /// `registry.identity`, the number the registered observers name as their home, copied here
    /// so that a delivery reads it without going through the registry.
    @usableFromInline final let identity: Int
    /// The value set last; nil when none was set (or nil was).
    @exclusivity(unchecked) @usableFromInline final var storedData: Value?
    /// Bumped by every set; `-1` while no value was ever set.
    @exclusivity(unchecked) @usableFromInline final var version: Int
    @exclusivity(unchecked) @usableFromInline final var isDispatching = false
    @exclusivity(unchecked) @usableFromInline final var isDispatchInvalidated = false
    /// Numbers the outermost deliveries, so each owner is loaded and pinned once per delivery.
    @exclusivity(unchecked) @usableFromInline final var deliveryNumber = 0
    /// The owners pinned by the delivery under way, unpinned when it ends.
    @exclusivity(unchecked) @usableFromInline final var pinnedOwners: [OwnerReference] = []

    /// Creates a holder with no value: ``data`` is nil and ``dispatch()`` delivers nothing until a
    /// value is set.
    nonisolated public init() {
        version = -1
        identity = registry.identity
    }

    /// Creates a holder that starts with `data`; the first ``dispatch()`` delivers it.
    public init(data: Value?) {
        storedData = data
        version = 0
        identity = registry.identity
    }

    /// The current value, or nil when none was set.
    @inlinable
    public var data: Value? { storedData }

    /// Whether any observer is registered. Registrations of deallocated owners are dropped first.
    public final var hasObservers: Bool {
        registry.hasObservers(host: self)
    }

    /// Whether any registered observer is active. Registrations of deallocated owners are dropped
    /// first.
    public final var hasActiveObservers: Bool {
        registry.hasActiveObservers(host: self)
    }

    // MARK: Observing

    /// Registers `update` bound to `owner` and returns the observer that wraps it.
    ///
    /// The owner is held weakly: once it is deallocated `update` is never called again. When the
    /// owner is a ``LifecycleOwner``, `update` runs only while its lifecycle is started or resumed.
    /// An owner whose lifecycle is already destroyed is ignored. Registering delivers nothing:
    /// call ``dispatch()`` or ``dispatch(initiator:)`` for the current value.
    ///
    /// Calling this from the owner's `deinit` (or from code its `deinit` runs) is a programming
    /// error that stops the program, unless the owner's lifecycle is already destroyed.
    ///
    /// - Returns: The observer, for ``remove(observer:)``; ignore it if you never remove.
    @inlinable
    @discardableResult
    public final func observe(owner: AnyObject, _ update: @escaping (Value?) -> Void) -> Observer<Value?> {
        let observer = Observer<Value?>(update: update)
        registry.add(observer, ownedBy: owner, host: self)  // a new observer: registered nowhere yet
        return observer
    }

    /// Registers `observer` bound to `owner`, as ``observe(owner:_:)`` does.
    ///
    /// Registering an observer again with the same owner does nothing; with a different owner (or
    /// after ``observeForever(observer:)``) it is a programming error that stops the program.
    @inlinable
    public final func observe(owner: AnyObject, observer: Observer<Value?>) {
        registry.register(observer, owner: owner, host: self)
    }

    /// Registers `update` with no owner: it is always active and stays registered until
    /// ``remove(observer:)``. Registering delivers nothing by itself.
    ///
    /// - Returns: The observer, for ``remove(observer:)``.
    @inlinable
    @discardableResult
    public final func observeForever(_ update: @escaping (Value?) -> Void) -> Observer<Value?> {
        let observer = Observer<Value?>(update: update)
        registry.append(observer, owner: nil, isActive: true, host: self)  // a new observer: registered nowhere yet
        return observer
    }

    /// Registers `observer` with no owner, as ``observeForever(_:)`` does.
    ///
    /// Registering it again this way does nothing; if it is registered with an owner, this is a
    /// programming error that stops the program.
    @inlinable
    public final func observeForever(observer: Observer<Value?>) {
        registry.register(observer, owner: nil, host: self)
    }

    /// Unregisters `observer`; it is not called again, even from a delivery under way. Does
    /// nothing if it is not registered.
    ///
    /// The holder lets go of the observer (and so of its closure) no later than its next set or
    /// dispatch.
    @inlinable
    public final func remove(observer: Observer<Value?>) {
        registry.remove(observer, host: self)
    }

    /// Unregisters every observer bound to `owner`.
    ///
    /// An owner may call this from its own `deinit`: its observers are removed at once, instead of
    /// the next time the holder finds the owner gone.
    public final func removeObservers(owner: AnyObject) {
        registry.removeObservers(owner: owner, host: self)
    }

    // MARK: Delivering

    /// Delivers the current value to every active observer that has not received it yet: the
    /// observers registered since the last dispatch. An inactive one receives it when it becomes
    /// active. No observer receives a version twice.
    public final func dispatch() {
        registry.iterate { observer in
            if !observer.hasReceived { observer.lastVersion = -1 }
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
        guard let registered = registry.registration(of: initiator) else { return false }
        if registered.owner?.isGone == true {
            registry.end(registered, host: self)
            return false
        }
        if !registered.hasReceived { registered.lastVersion = -1 }
        dispatchValue(initiator: registered)
        return true
    }

    /// Stores `value`, bumps the version and delivers it to the active observers.
    @inlinable
    final func setValue(_ value: Value?) {
        storedData = value
        version &+= 1
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

    // MARK: Delivery

    /// Android's dispatching / invalidated loop: a dispatch requested while one is running marks
    /// it invalid, and the running one starts over with every observer once the current observer
    /// returns. Nothing is ever delivered re-entrantly.
    @inlinable
    final func dispatchValue(initiator: Observer<Value?>?) {
        if isDispatching {
            isDispatchInvalidated = true
            return
        }
        isDispatching = true
        registry.iterationDepth += 1
        deliveryNumber &+= 1
        var initiator = initiator
        repeat {
            isDispatchInvalidated = false
            if let single = initiator {
                considerNotify(single, at: single.slot)
                initiator = nil
            } else {
                var index = 0
                while index < registry.observers.count {
                    // No closure: one formed here would check its isolation on every call. (The
                    // optimizer retains no entry here: `unowned(unsafe)` on `observer` ran the
                    // same number of instructions in LiveDataVersus, so it is not used.)
                    let observer = registry.observers[index]
                    considerNotify(observer, at: index)
                    if isDispatchInvalidated { break }
                    index &+= 1
                }
            }
        } while isDispatchInvalidated
        registry.iterationDepth -= 1
        isDispatching = false
        if !pinnedOwners.isEmpty { unpinOwners() }
        // Observers ended during the delivery (removed, owner gone) are let go of now.
        if registry.endedCount > 0 { registry.compact() }
    }

    /// Delivers the current version to the observer at `index` if it is live there, its owner
    /// alive, it is active and it has not received this version.
    ///
    /// The first registration of an owner met by a delivery loads the weak reference and pins
    /// the owner until the delivery ends: an owner still alive when a delivery reaches it stays
    /// alive, and keeps receiving, until that delivery is over, even if everyone else lets go of
    /// it meanwhile. Its other registrations need no load.
    @inlinable
    final func considerNotify(_ observer: Observer<Value?>, at index: Int) {
        guard observer.home == identity, observer.slot == index else { return }
        if let reference = observer.owner {
            if reference.pinnedDelivery != deliveryNumber {
                guard reference.pin(for: deliveryNumber) else {
                    registry.end(observer, host: self)
                    return
                }
                pinnedOwners.append(reference)
            }
        }
        guard observer.isActive, version > observer.lastVersion else { return }
        observer.lastVersion = version
        observer.hasReceived = true
        observer.update(storedData)
    }
}
