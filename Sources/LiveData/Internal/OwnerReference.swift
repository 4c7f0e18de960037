/// The owner of one or more registrations of a holder, held weakly.
///
/// Registrations made one after another with the same owner share one reference, so a delivery
/// loads the weak reference once per owner instead of once per observer: loading a weak
/// reference costs two atomic operations, more than calling the observer. The delivery that
/// loads it keeps the owner alive (`pinned`) until it ends, so the owner cannot be deallocated
/// between the check and the calls to its observers.
///
/// Read and written on the main actor by the holder that made it.
final class OwnerReference {
    /// The owner.
    weak var object: AnyObject?
    /// The identity of the owner's lifecycle, for owners that are ``LifecycleOwner``s.
    let lifecycle: ObjectIdentifier?
    /// The owner, held strongly by the delivery numbered `pinnedDelivery` while it runs.
    var pinned: AnyObject?
    var pinnedDelivery = 0

    init(_ object: AnyObject, lifecycle: ObjectIdentifier?) {
        self.object = object
        self.lifecycle = lifecycle
    }
}
