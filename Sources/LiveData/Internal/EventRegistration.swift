/// One registration of an observer with a ``LiveEvent``: its owner (held weakly), whether it is
/// active, and its place in the registration order.
///
/// Read and written on the main actor by the event that made it.
@MainActor
final class EventRegistration<Value> {
    let observer: Observer<Value>
    /// Numbers registrations in the order they were made; an event goes only to registrations
    /// numbered below the count at the time it was sent.
    let sequence: Int
    /// Whether it was made with an owner (`observe(owner:)`) rather than `observeForever`.
    let hasOwner: Bool
    /// The owner; nil for `observeForever`, and once the owner is deallocated.
    weak var owner: AnyObject?
    /// The owner's identity, which stays readable while the owner runs its `deinit` (the weak
    /// reference then reads nil).
    let ownerKey: ObjectIdentifier?
    /// The owner's lifecycle, when the owner is a ``LifecycleOwner``.
    let lifecycle: Lifecycle?
    /// False once removed, destroyed or found with its owner gone; it is never called again.
    var isLive = true
    /// Whether the owner's lifecycle is started or resumed (always true without a lifecycle).
    var isActive: Bool

    init(observer: Observer<Value>, sequence: Int, owner: AnyObject?, lifecycle: Lifecycle?) {
        self.observer = observer
        self.sequence = sequence
        self.hasOwner = owner != nil
        self.owner = owner
        self.ownerKey = owner.map(ObjectIdentifier.init)
        self.lifecycle = lifecycle
        self.isActive = lifecycle?.state.isActive ?? true
    }

    /// Whether the owner was deallocated.
    var isOwnerGone: Bool { hasOwner && owner == nil }

    /// Whether `owner` (nil: no owner) is the owner it was made with. (`owner` is alive.)
    func isOwned(by owner: AnyObject?) -> Bool {
        guard let owner else { return !hasOwner }
        return self.owner === owner
    }

    /// Whether `removeObservers(owner: owner)` ends this registration: its owner is `owner`, or
    /// is gone and had `owner`'s address, as when `owner` calls it from its own `deinit` (a
    /// registration of an earlier, dead owner at that address is never called again anyway).
    func isRemoved(byOwner owner: AnyObject) -> Bool {
        guard ownerKey == ObjectIdentifier(owner) else { return false }
        let current = self.owner
        return current == nil || current === owner
    }
}
