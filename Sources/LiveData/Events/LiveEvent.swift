/// One-shot events, such as "show this notice" or "go to that screen", for the observers whose
/// owners are on screen. Unlike a ``LiveData/LiveData``, it stores no value: a screen that comes
/// back is not told again what it has already been told.
///
/// A view model keeps a ``MutableLiveEvent`` private and exposes it as `LiveEvent`; a view
/// observes it with itself as the owner, as it observes a holder:
///
/// ```swift
/// viewModel.notices.observe(owner: self) { [unowned self] text in showBanner(text) }
/// ```
///
/// ## The contract
///
/// - **Delivery.** ``MutableLiveEvent/send(_:)`` delivers the event to every observer that was
///   registered before the send and is active when the delivery reaches it, in registration
///   order, on the main actor, before `send` returns. Nothing is stored for later observers.
/// - **Active observers.** As with ``LiveData/LiveData``: an observer whose owner is a
///   ``LifecycleOwner`` is active while its lifecycle is
///   ``Lifecycle/State-swift.enum/started`` or ``Lifecycle/State-swift.enum/resumed``;
///   ``Lifecycle/State-swift.enum/destroyed`` removes it, and observing with a destroyed owner is
///   ignored. Any other owner is active while it lives (it is held weakly, and never called once
///   deallocated); ``observeForever(_:)`` observers are always active. An owner is kept alive
///   while its observer runs.
/// - **No re-entrancy.** An event sent from inside an observer (of this event) is queued, and
///   delivered once the event being delivered has reached every observer: each event is
///   delivered whole, in the order sent. Observers may be added or removed meanwhile; a removed
///   observer is not called again, and a new one receives only events sent after it registered.
/// - **Events nobody receives.** An event that reaches no observer is dropped, or kept, as
///   ``unobservedPolicy`` says. With ``UnobservedEventPolicy/keep``, the kept events, oldest
///   first, go to the first observer that becomes active (by registering with an active owner,
///   or by its lifecycle starting), and to no other: exactly once. Should that observer stop
///   being active part-way through, the rest stay kept for the next one. They are delivered
///   before any event sent later.
/// - **From other threads.** ``MutableLiveEvent/postEvent(_:)`` hands an event to the main
///   thread; every posted event is sent, in the order posted. Nothing is coalesced.
///
/// Registering one ``Observer`` with two different owners (or with an owner and with
/// ``observeForever(observer:)``) stops the program, as it does with a holder; registering it
/// again the same way does nothing.
///
/// ## Why not a LiveData
///
/// A ``LiveData/LiveData`` is sticky: it delivers its latest value to an observer that becomes
/// active. Used for "a message failed to send", that repeats the notice every time the screen
/// comes back, the best known complaint about Android's `LiveData`. Wrapping the value in an
/// "already handled" flag (Android's `Event` wrapper) or a `SingleLiveEvent` works around it;
/// this type has no value to repeat. `MutableLiveEvent(whenUnobserved: .keep)` is what Android
/// code reaches `SingleLiveEvent` for, with two differences: every active observer receives each
/// event (not just one of them), and every event sent while no observer is active is kept, not
/// only the latest.
@MainActor
public class LiveEvent<Value> {
    /// What happens to an event that reaches no observer.
    public final let unobservedPolicy: UnobservedEventPolicy

    /// The observers, their owners and which of them are active; shared with
    /// ``LiveData/LiveData``.
    private final let registry = ObserverRegistry<LiveEvent<Value>>()
    /// The number of events sent so far. A registration's mark (`Observer.lastVersion`) is this
    /// count when it registered; an event goes only to registrations whose mark is below its
    /// number, that is, to those made before it was sent.
    private final var sentCount = 0
    /// Events sent and not yet delivered: sent from inside an observer while a delivery runs.
    private final var queue: [QueuedEvent] = []
    private final var queueHead = 0
    /// Events that reached no observer, oldest first (``UnobservedEventPolicy/keep`` only).
    private final var kept: [Value] = []
    private final var isDelivering = false

    /// An event waiting for its turn, and its number (`sentCount` once it was sent).
    private struct QueuedEvent {
        var event: Value
        var number: Int
    }

    nonisolated init(policy: UnobservedEventPolicy) {
        unobservedPolicy = policy
    }

    // MARK: Observing

    /// Registers `receive` bound to `owner` and returns the observer that wraps it.
    ///
    /// The owner is held weakly; when it is a ``LifecycleOwner``, `receive` runs only while its
    /// lifecycle is started or resumed, and an owner already destroyed is ignored. If events are
    /// kept (``UnobservedEventPolicy/keep``) and the owner is active, they are delivered to
    /// `receive` before this method returns.
    ///
    /// Calling this from the owner's `deinit` (or from code its `deinit` runs) is a programming
    /// error that stops the program, as with ``LiveData/LiveData``, unless the owner's lifecycle
    /// is already destroyed, which makes the call ignored.
    ///
    /// - Returns: The observer, for ``remove(observer:)``; ignore it if you never remove.
    @discardableResult
    public final func observe(owner: AnyObject, _ receive: @escaping (Value) -> Void) -> Observer<Value> {
        let observer = Observer(update: receive)
        register(observer, owner: owner)
        return observer
    }

    /// Registers `observer` bound to `owner`, as ``observe(owner:_:)`` does.
    public final func observe(owner: AnyObject, observer: Observer<Value>) {
        register(observer, owner: owner)
    }

    /// Registers `receive` with no owner: it is always active, until ``remove(observer:)``.
    /// Kept events, if any, are delivered to it before this method returns.
    ///
    /// - Returns: The observer, for ``remove(observer:)``.
    @discardableResult
    public final func observeForever(_ receive: @escaping (Value) -> Void) -> Observer<Value> {
        let observer = Observer(update: receive)
        register(observer, owner: nil)
        return observer
    }

    /// Registers `observer` with no owner, as ``observeForever(_:)`` does.
    public final func observeForever(observer: Observer<Value>) {
        register(observer, owner: nil)
    }

    /// Unregisters `observer`: it is not called again, even by a delivery under way. Does
    /// nothing if it is not registered.
    public final func remove(observer: Observer<Value>) {
        registry.remove(observer, host: self)
    }

    /// Unregisters every observer bound to `owner`. An owner may call it from its own `deinit`.
    public final func removeObservers(owner: AnyObject) {
        registry.removeObservers(owner: owner, host: self)
    }

    /// Whether any observer is registered. Registrations of deallocated owners are dropped first.
    public final var hasObservers: Bool {
        registry.hasObservers(host: self)
    }

    /// Whether any registered observer is active. Registrations of deallocated owners are
    /// dropped first.
    public final var hasActiveObservers: Bool {
        registry.hasActiveObservers(host: self)
    }

    // MARK: Registering

    /// Registers `observer` unless it is registered already (see ``ObserverRegistry``), then
    /// hands it the kept events if it is active.
    private final func register(_ observer: Observer<Value>, owner: AnyObject?) {
        guard registry.register(observer, owner: owner, host: self), !kept.isEmpty else { return }
        if registry.registration(of: observer)?.isActive == true { deliverQueued() }
    }

    // MARK: Delivering

    /// Queues `event` and, unless a delivery is under way, delivers it now.
    final func enqueue(_ event: Value) {
        sentCount += 1
        queue.append(QueuedEvent(event: event, number: sentCount))
        deliverQueued()
    }

    /// Delivers the kept events (to the first active registration) and the queued ones, until
    /// there is nothing left that can be delivered. Called while it runs, it returns at once:
    /// the running loop picks up what was queued or became active. The registry's list is not
    /// compacted while it runs, so an index names one registration throughout.
    private final func deliverQueued() {
        guard !isDelivering else { return }
        isDelivering = true
        registry.iterationDepth += 1
        while true {
            if !kept.isEmpty, let receiver = firstActiveRegistration() {
                handKeptEvents(to: receiver.observer, at: receiver.index)
                continue
            }
            guard queueHead < queue.count else { break }
            let next = queue[queueHead]
            queueHead += 1
            if !deliver(next), unobservedPolicy == .keep { kept.append(next.event) }
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        registry.iterationDepth -= 1
        isDelivering = false
        registry.compact()
    }

    /// Delivers one event to every registration made before it was sent.
    /// - Returns: Whether it reached any observer.
    private final func deliver(_ queued: QueuedEvent) -> Bool {
        var reached = false
        var index = 0
        while index < registry.observers.count {
            let observer = registry.observers[index]
            // A mark at or above the event's number: registered after the send.
            if observer.lastVersion < queued.number, call(observer, at: index, with: queued.event) {
                reached = true
            }
            index += 1
        }
        return reached
    }

    /// Delivers the kept events, oldest first, to the registration at `index` while it stays
    /// live and active; whatever it did not receive stays kept.
    private final func handKeptEvents(to receiver: Observer<Value>, at index: Int) {
        var events = kept
        kept = []
        var delivered = 0
        while delivered < events.count, call(receiver, at: index, with: events[delivered]) {
            delivered += 1
        }
        if delivered < events.count {
            events.removeFirst(delivered)
            kept = events + kept
        }
    }

    /// Calls `observer` with `event` if it is live at `index` and active and its owner is alive,
    /// keeping the owner alive during the call. A registration whose owner is gone is ended.
    /// - Returns: Whether the observer was called.
    private final func call(_ observer: Observer<Value>, at index: Int, with event: Value) -> Bool {
        guard observer.home == registry.identity, observer.slot == index, observer.isActive else { return false }
        guard let reference = observer.owner else {
            observer.update(event)
            return true
        }
        guard let owner = reference.object else {
            registry.end(observer, host: self)
            return false
        }
        withExtendedLifetime(owner) { observer.update(event) }
        return true
    }

    /// The first live, active registration whose owner is alive, in registration order, and its
    /// index; registrations met on the way whose owner is gone are ended.
    private final func firstActiveRegistration() -> (observer: Observer<Value>, index: Int)? {
        var index = 0
        while index < registry.observers.count {
            let observer = registry.observers[index]
            if observer.home == registry.identity, observer.slot == index, observer.isActive {
                guard observer.owner?.isGone == true else { return (observer, index) }
                registry.end(observer, host: self)
            }
            index += 1
        }
        return nil
    }
}

extension LiveEvent: ObserverRegistryHost {
    @usableFromInline static var holderName: String { "LiveEvent" }

    /// A new registration receives only the events sent after it registered.
    @usableFromInline var registrationMark: Int { sentCount }

    // An event has no work to start or stop while observed.
    @usableFromInline func registryDidBecomeActive() {}
    @usableFromInline func registryDidBecomeInactive() {}

    // An observer that becomes active is handed the kept events once the lifecycle change has
    // reached every registration (below), not one by one.
    @usableFromInline func registry(didActivate _: Observer<Value>) {}

    @usableFromInline func lifecycle(_ lifecycle: Lifecycle, didChangeTo _: Lifecycle.State) {
        if registry.apply(lifecycle, host: self), !kept.isEmpty { deliverQueued() }
    }
}
