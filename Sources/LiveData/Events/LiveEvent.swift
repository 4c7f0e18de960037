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

    /// The registrations, in registration order. Ended ones stay until `compact()` drops them,
    /// so that removal never shifts a running loop.
    private final var registrations: [EventRegistration<Value>] = []
    /// Ended registrations still in the list.
    private final var endedCount = 0
    /// Loops over `registrations` under way; compaction waits for them to finish.
    private final var iterationDepth = 0
    /// The number the next registration gets.
    private final var nextSequence = 0
    /// Events sent and not yet delivered: sent from inside an observer while a delivery runs.
    private final var queue: [QueuedEvent] = []
    private final var queueHead = 0
    /// Events that reached no observer, oldest first (``UnobservedEventPolicy/keep`` only).
    private final var kept: [Value] = []
    private final var isDelivering = false

    /// An event waiting for its turn, and the registrations that were made before it was sent.
    private struct QueuedEvent {
        var event: Value
        var registeredBefore: Int
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
        iterate { if $0.observer === observer { end($0) } }
    }

    /// Unregisters every observer bound to `owner`. An owner may call it from its own `deinit`.
    public final func removeObservers(owner: AnyObject) {
        iterate { if $0.isRemoved(byOwner: owner) { end($0) } }
    }

    /// Whether any observer is registered. Registrations of deallocated owners are dropped first.
    public final var hasObservers: Bool {
        pruneDeallocatedOwners()
        return registrations.count > endedCount
    }

    /// Whether any registered observer is active. Registrations of deallocated owners are
    /// dropped first.
    public final var hasActiveObservers: Bool {
        pruneDeallocatedOwners()
        return registrations.contains { $0.isLive && $0.isActive }
    }

    // MARK: Registering

    private final func register(_ observer: Observer<Value>, owner: AnyObject?) {
        if let existing = registrations.last(where: { $0.isLive && $0.observer === observer }) {
            if existing.isOwnerGone {
                end(existing)  // its owner is gone: the observer is free to register again
            } else {
                precondition(
                    existing.isOwned(by: owner),
                    "LiveEvent: this Observer is already registered \(existing.hasOwner ? "with another owner" : "with observeForever"); one observer can have only one owner per LiveEvent. Create a new Observer, or remove(observer:) first."
                )
                return
            }
        }
        let lifecycle = (owner as? any LifecycleOwner)?.lifecycle
        if let lifecycle, lifecycle.state == .destroyed { return }
        // On Darwin, forming the weak reference to an Objective-C owner in its deinit traps here.
        let registration = EventRegistration(observer: observer, sequence: nextSequence, owner: owner, lifecycle: lifecycle)
        precondition(
            !registration.isOwnerGone,
            "LiveEvent: observe(owner:) was called with an owner that is being deallocated (from its deinit, or from code its deinit runs); an owner cannot be observed once its deinit has started. Register earlier, or set the owner's lifecycle to .destroyed first, which makes the event ignore it."
        )
        lifecycle?.addListener(self)
        nextSequence += 1
        registrations.append(registration)
        if registration.isActive, !kept.isEmpty { deliverQueued() }
    }

    // MARK: Delivering

    /// Queues `event` and, unless a delivery is under way, delivers it now.
    final func enqueue(_ event: Value) {
        queue.append(QueuedEvent(event: event, registeredBefore: nextSequence))
        deliverQueued()
    }

    /// Delivers the kept events (to the first active registration) and the queued ones, until
    /// there is nothing left that can be delivered. Called while it runs, it returns at once:
    /// the running loop picks up what was queued or became active.
    private final func deliverQueued() {
        guard !isDelivering else { return }
        isDelivering = true
        iterationDepth += 1
        while true {
            if !kept.isEmpty, let receiver = firstActiveRegistration() {
                handKeptEvents(to: receiver)
                continue
            }
            guard queueHead < queue.count else { break }
            let next = queue[queueHead]
            queueHead += 1
            if !deliver(next), unobservedPolicy == .keep { kept.append(next.event) }
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        iterationDepth -= 1
        isDelivering = false
        compact()
    }

    /// Delivers one event to every registration made before it was sent.
    /// - Returns: Whether it reached any observer.
    private final func deliver(_ queued: QueuedEvent) -> Bool {
        var reached = false
        var index = 0
        // Registrations are in sequence order; later ones were made after the send.
        while index < registrations.count, registrations[index].sequence < queued.registeredBefore {
            if call(registrations[index], with: queued.event) { reached = true }
            index += 1
        }
        return reached
    }

    /// Delivers the kept events, oldest first, to `receiver` while it stays active; whatever it
    /// did not receive stays kept.
    private final func handKeptEvents(to receiver: EventRegistration<Value>) {
        var events = kept
        kept = []
        var delivered = 0
        while delivered < events.count, call(receiver, with: events[delivered]) {
            delivered += 1
        }
        if delivered < events.count {
            events.removeFirst(delivered)
            kept = events + kept
        }
    }

    /// Calls `registration` with `event` if it is live and active and its owner is alive, keeping
    /// the owner alive during the call. A registration whose owner is gone is ended.
    /// - Returns: Whether the observer was called.
    private final func call(_ registration: EventRegistration<Value>, with event: Value) -> Bool {
        guard registration.isLive, registration.isActive else { return false }
        let owner = registration.owner
        if registration.hasOwner, owner == nil {
            end(registration)
            return false
        }
        withExtendedLifetime(owner) { registration.observer.update(event) }
        return true
    }

    /// The first live, active registration whose owner is alive, in registration order.
    private final func firstActiveRegistration() -> EventRegistration<Value>? {
        var found: EventRegistration<Value>?
        iterate { registration in
            guard found == nil, registration.isActive else { return }
            if registration.isOwnerGone { end(registration) } else { found = registration }
        }
        return found
    }

    // MARK: Bookkeeping

    /// Runs `body` over the live registrations in order, including ones made meanwhile.
    private final func iterate(_ body: (EventRegistration<Value>) -> Void) {
        iterationDepth += 1
        var index = 0
        while index < registrations.count {
            let registration = registrations[index]
            if registration.isLive { body(registration) }
            index += 1
        }
        iterationDepth -= 1
        compact()
    }

    private final func end(_ registration: EventRegistration<Value>) {
        guard registration.isLive else { return }
        registration.isLive = false
        endedCount += 1
    }

    private final func pruneDeallocatedOwners() {
        iterate { if $0.isOwnerGone { end($0) } }
    }

    /// Drops ended registrations (letting go of their observers). Waits while a loop runs.
    private final func compact() {
        guard iterationDepth == 0, endedCount > 0 else { return }
        registrations.removeAll { !$0.isLive }
        endedCount = 0
    }
}

extension LiveEvent: LifecycleListener {
    func lifecycle(_ lifecycle: Lifecycle, didChangeTo _: Lifecycle.State) {
        var becameActive = false
        iterate { registration in
            guard registration.lifecycle === lifecycle else { return }
            let state = lifecycle.state
            if state == .destroyed || registration.isOwnerGone {
                end(registration)
            } else if state.isActive != registration.isActive {
                registration.isActive = state.isActive
                if state.isActive { becameActive = true }
            }
        }
        if becameActive, !kept.isEmpty { deliverQueued() }
    }
}
