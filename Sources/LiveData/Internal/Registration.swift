/// One observer registered with one ``LiveData``: its owner, whether it is active, and the
/// newest version it has received.
///
/// Owned by the holder's registration list; every field is read and written on the main actor
/// by that holder only.
final class Registration<Value> {
    /// The observer, or nil once the registration ended (removed, owner gone, owner destroyed).
    /// Clearing it releases the observer's closure at once; the empty shell is dropped when the
    /// holder compacts its list.
    var observer: Observer<Value?>?

    /// The owner, held weakly; nil for `observeForever`.
    weak var owner: AnyObject?

    /// The identity of the owner's lifecycle, for owners that are ``LifecycleOwner``s.
    let lifecycle: ObjectIdentifier?

    /// Whether the registration has an owner (false for `observeForever`).
    let isBound: Bool

    /// Whether the observer currently receives values.
    var isActive = false

    /// The version last delivered. At registration it is the holder's current version, so
    /// registering delivers nothing by itself; an explicit `dispatch` lowers it to `-1` for an
    /// observer that has received nothing yet (``hasReceived`` is false).
    var lastVersion: Int

    /// Whether anything has been delivered to this observer.
    var hasReceived = false

    init(observer: Observer<Value?>, owner: AnyObject?, lifecycle: ObjectIdentifier?, version: Int) {
        self.observer = observer
        self.owner = owner
        self.lifecycle = lifecycle
        self.isBound = owner != nil
        self.lastVersion = version
    }

    /// Whether the registration is bound to `owner` (or, with nil, is an `observeForever` one).
    func isAttached(to owner: AnyObject?) -> Bool {
        guard isBound else { return owner == nil }
        return owner != nil && self.owner === owner
    }
}
