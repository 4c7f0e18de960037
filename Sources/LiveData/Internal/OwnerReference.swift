/// The owner of one or more registrations of a holder, held weakly.
///
/// A holder's registry has one reference per owner, shared by all of that owner's
/// registrations, so a ``LiveData`` delivery loads the weak reference once per owner instead of
/// once per observer: loading a weak reference costs two atomic operations, more than calling
/// the observer. The delivery that loads it keeps the owner alive (`pinned`) until it ends, so
/// the owner cannot be deallocated between the check and the calls to its observers: an owner
/// released by someone during a delivery is deallocated when that delivery ends, and receives
/// nothing after. (A ``LiveEvent`` loads the owner for each call and holds it during that call
/// only.)
///
/// ## Telling owners apart
///
/// `key` is the owner's address, but an address is not an identity: once the owner is
/// deallocated, a new object may be allocated at the same address while this reference still
/// exists (its registrations keep it until they end). So ``refers(to:)`` checks the weak
/// reference too: a live owner at the same address is this owner, and a deallocated one is no
/// object's. The reference keeps nothing of the owner but the weak reference: an `unowned`
/// reference would reserve the address of a Swift object, but to an Objective-C object (every
/// `UIViewController`) it is an Objective-C weak reference, which reserves nothing. The weak
/// check holds on both runtimes alike. It costs a registration one weak load and its release
/// (20 to 30 ns in LiveDataVersus on Linux, paid back by specializing `compact()`). Keying a ``LifecycleOwner`` by its lifecycle,
/// whose address this reference does reserve, would spare the load, but two owners may share a
/// lifecycle (a child view forwarding its parent's), and reading an owner's lifecycle takes a
/// dynamic cast per registration.
///
/// ## Owners being deallocated
///
/// Forming a weak reference to an object inside its own `deinit` traps on Darwin when the object
/// is an Objective-C one, and gives a reference that is nil at once elsewhere. A holder therefore
/// makes a reference only for an owner that can have one: it checks a ``LifecycleOwner``'s
/// lifecycle first (a destroyed one is ignored without forming anything), and stops the program
/// when the weak reference it has just formed is already nil, so registering from an owner's
/// `deinit` is the same programming error on both runtimes.
///
/// Read and written on the main actor by the registry that made it (`ObserverRegistry`, shared
/// by ``LiveData`` and ``LiveEvent``) and by its holder's deliveries.
@usableFromInline
final class OwnerReference {
    /// The owner. (A `var`, left with its run-time exclusivity check: measured as a `weak let`,
    /// which takes none, the delivery of one observer ran about 8% slower in LiveDataVersus,
    /// though it ran fewer instructions; the same as found before without the check.)
    @usableFromInline weak var object: AnyObject?
    /// The owner's lifecycle, for owners that are ``LifecycleOwner``s. Held strongly (a lifecycle
    /// holds nothing of its owner, so this makes no cycle): reading it costs no atomic operation,
    /// and while this reference exists no other lifecycle can take its address.
    @usableFromInline let lifecycle: Lifecycle?
    /// The owner's address when this reference was made: its key in its holder's table.
    @usableFromInline let key: ObjectIdentifier
    /// The live registrations that share this reference.
    @exclusivity(unchecked) @usableFromInline var registrationCount = 0
    /// The owner, held strongly by the delivery numbered `pinnedDelivery` while it runs.
    @exclusivity(unchecked) @usableFromInline var pinned: AnyObject?
    @exclusivity(unchecked) @usableFromInline var pinnedDelivery = 0

    /// Whether its holder listens to the owner's lifecycle already.
    @exclusivity(unchecked) @usableFromInline var isListening = false

    /// Makes the reference of `object`, which must be alive and not being deallocated (on Darwin,
    /// forming the weak reference to an Objective-C object in its `deinit` traps here).
    init(_ object: AnyObject, lifecycle: Lifecycle?) {
        self.object = object
        self.key = ObjectIdentifier(object)
        self.lifecycle = lifecycle
    }

    /// Pins the owner for delivery `number`, unless it is gone.
    /// - Returns: Whether the owner is alive and now pinned.
    @inlinable
    func pin(for number: Int) -> Bool {
        guard let owner = object else { return false }
        pinned = owner
        pinnedDelivery = number
        return true
    }

    /// Whether `object`, which the caller holds, is this owner: it is at the owner's address and
    /// the owner is alive (an owner in its `deinit` no longer is). While the owner is alive no
    /// other object can be at its address, so the weak reference is only checked for nil: no
    /// copy of `object` is made to compare it.
    @inlinable
    func refers(to object: AnyObject) -> Bool {
        key == ObjectIdentifier(object) && !isGone
    }

    /// The state of the owner's lifecycle; nil for an owner that is not a ``LifecycleOwner``.
    @inlinable @MainActor
    var lifecycleState: Lifecycle.State? {
        lifecycle?.state
    }

    /// Whether the owner is deallocated (or being deallocated). A pinned owner is alive.
    @inlinable
    var isGone: Bool {
        object == nil
    }
}
