import LiveData

/// The `LiveData` behind a live object's or collection's observers: one revision per visible
/// change, observed with notification tokens as owners.
@MainActor
final class Revisions {
    struct Revision {
        let number: Int
        /// The change from the revision before, for collections.
        let change: CollectionChange?
    }

    private let holder = MutableLiveData<Revision>()

    var current: Int { holder.data?.number ?? 0 }

    /// Announces a visible change to every observer.
    func publish(_ change: CollectionChange? = nil) {
        holder.data = Revision(number: current + 1, change: change)
    }

    /// Observes the revisions. `deliver` gets the change when the observer saw the revision just
    /// before (nil otherwise, as on a first delivery); `accept` filters deliveries for
    /// `observeOnce`. When `once` is set the token is invalidated after the first accepted one.
    /// The token keeps `observed` (the live object or collection that owns these revisions)
    /// until it is invalidated or released.
    func observe(
        keeping observed: AnyObject,
        once: Bool = false,
        accept: @escaping () -> Bool = { true },
        _ deliver: @escaping (CollectionChange?) -> Void
    ) -> NotificationToken {
        let token = NotificationToken(keeping: observed)
        var lastSeen = current
        // The closure holds the token weakly: the token is the owner, and must die with its holder.
        let observer = holder.observe(owner: token) { [weak token] revision in
            guard let revision, let token, token.isValid else { return }
            let change = revision.number == lastSeen + 1 ? revision.change : nil
            lastSeen = revision.number
            guard accept() else { return }
            if once { token.invalidate() }
            deliver(change)
        }
        // A state already announced is delivered at once, as the current state: its revision is
        // not `lastSeen + 1`, so it carries no change.
        if holder.data != nil { holder.dispatch(initiator: observer) }
        return token
    }
}
