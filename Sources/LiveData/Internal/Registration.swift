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

    /// The owner, shared with the registrations made just before with the same owner; nil for
    /// `observeForever`.
    let owner: OwnerReference?

    /// Whether the observer currently receives values.
    var isActive = false

    /// The version last delivered, or the mark below which nothing is delivered. It is
    /// `Int.max` while the registration is being made (so a value set by `onActive()` is not
    /// delivered), then the holder's current version, so registering delivers nothing by itself.
    /// An explicit `dispatch` lowers it to `-1` for an observer that has received nothing yet
    /// (`hasReceived` is false).
    var lastVersion: Int

    /// Whether anything has been delivered to this observer.
    var hasReceived = false

    init(observer: Observer<Value?>, owner: OwnerReference?, version: Int) {
        self.observer = observer
        self.owner = owner
        self.lastVersion = version
    }

    /// Whether the registration is bound to `owner` (or, with nil, is an `observeForever` one).
    func isAttached(to owner: AnyObject?) -> Bool {
        guard let reference = self.owner else { return owner == nil }
        return owner != nil && reference.object === owner
    }

    /// Whether the registration has an owner that has been deallocated.
    var hasDeallocatedOwner: Bool {
        owner?.isGone ?? false
    }
}
