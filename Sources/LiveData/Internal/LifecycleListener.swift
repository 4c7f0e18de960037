/// A holder told of state changes of the lifecycles its observers are bound to.
@MainActor
@usableFromInline
protocol LifecycleListener: AnyObject {
    func lifecycle(_ lifecycle: Lifecycle, didChangeTo state: Lifecycle.State)
}

/// The weakly held listeners of one ``Lifecycle``, in the order they were added.
///
/// A lifecycle usually has a handful of listeners (one per ``LiveData`` its owner observes),
/// so adding scans for a duplicate; entries whose holder is gone are dropped as they are met.
struct LifecycleListeners {
    private struct Entry {
        weak var listener: (any LifecycleListener)?
    }

    private var entries: [Entry] = []

    mutating func add(_ listener: any LifecycleListener) {
        entries.removeAll { $0.listener == nil }
        if entries.contains(where: { $0.listener === listener }) { return }
        entries.append(Entry(listener: listener))
    }

    mutating func snapshot() -> [any LifecycleListener] {
        var live: [any LifecycleListener] = []
        live.reserveCapacity(entries.count)
        for entry in entries {
            if let listener = entry.listener { live.append(listener) }
        }
        if live.count != entries.count { entries.removeAll { $0.listener == nil } }
        return live
    }

    mutating func removeAll() { entries.removeAll() }
}
