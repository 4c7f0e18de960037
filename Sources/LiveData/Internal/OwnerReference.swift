/// The owner of one or more registrations of a holder, held weakly.
///
/// A holder has one reference per owner, shared by all of that owner's registrations, so a
/// delivery loads the weak reference once per owner instead of once per observer: loading a
/// weak reference costs two atomic operations, more than calling the observer. The delivery that
/// loads it keeps the owner alive (`pinned`) until it ends, so the owner cannot be deallocated
/// between the check and the calls to its observers: an owner released by someone during a
/// delivery is deallocated when that delivery ends, and receives nothing after.
///
/// Read and written on the main actor by the holder that made it.
@usableFromInline
final class OwnerReference {
    /// The owner.
    @usableFromInline weak var object: AnyObject?
    /// The owner's lifecycle, for owners that are ``LifecycleOwner``s. Held strongly (a lifecycle
    /// holds nothing of its owner, so this makes no cycle): reading it costs no atomic operation,
    /// and while this reference exists no other lifecycle can take its address.
    @usableFromInline let lifecycle: Lifecycle?
    /// The owner's identity, the key of this reference in its holder's table.
    @usableFromInline let key: ObjectIdentifier
    /// The owner again, unowned: for a Swift object this keeps its memory (not the object)
    /// allocated until the reference goes, so no other object can take its address meanwhile,
    /// and `key` alone tells whether a live object is this owner, with no atomic operation.
    @usableFromInline unowned let identity: AnyObject
    /// The live registrations that share this reference.
    @exclusivity(unchecked) @usableFromInline var registrationCount = 0
    /// The owner, held strongly by the delivery numbered `pinnedDelivery` while it runs.
    @exclusivity(unchecked) @usableFromInline var pinned: AnyObject?
    @exclusivity(unchecked) @usableFromInline var pinnedDelivery = 0

    /// Whether its holder listens to the owner's lifecycle already.
    @exclusivity(unchecked) @usableFromInline var isListening = false

    init(_ object: AnyObject, lifecycle: Lifecycle?) {
        self.object = object
        self.key = ObjectIdentifier(object)
        self.identity = object
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

    /// Whether `object` is this owner. (It must be alive: the caller holds it.)
    @inlinable
    func refers(to object: AnyObject) -> Bool {
        #if canImport(ObjectiveC)
        // An unowned reference to an Objective-C object (a view controller, say) does not keep
        // its memory, so a new object may have taken the address: compare with the live owner.
        return key == ObjectIdentifier(object) && self.object === object
        #else
        return key == ObjectIdentifier(object)
        #endif
    }

    /// Whether the owner is deallocated. (A pinned owner is alive.)
    @inlinable
    var isGone: Bool {
        object == nil
    }
}
