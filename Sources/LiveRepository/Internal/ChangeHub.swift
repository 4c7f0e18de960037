/// Something on the main actor that hears about committed cache changes.
@MainActor
protocol CacheChangeListener: AnyObject {
    /// Called on the main actor after a transaction that touched the listener's table commits.
    func cacheDidChange(_ change: TableChange)

    /// ``cacheDidChange(_:)`` with what the store read for the listener on its queue, in the
    /// transaction that found the change (see ``ChangePreparers``), or nil. The default ignores it.
    func cacheDidChange(_ change: TableChange, prepared: (any Sendable)?)
}

extension CacheChangeListener {
    func cacheDidChange(_ change: TableChange, prepared: (any Sendable)?) { cacheDidChange(change) }
}

/// Routes committed changes to the live objects and collections that read the touched rows, and
/// every commit to the observers of all commits (the chat collections).
///
/// Live objects are found by table and `id`, collections by table, both held weakly: a live
/// object or collection that nobody keeps is simply skipped and swept. Observers of all commits
/// are held weakly too, and hear each publication after the live objects and collections.
@MainActor
final class ChangeHub {
    private struct Weak {
        weak var listener: (any CacheChangeListener)?
    }

    private var objects: [String: [String: [Weak]]] = [:]
    private var collections: [String: [Weak]] = [:]
    private struct WeakObserver {
        weak var observer: (any StoreCommitObserver)?
    }
    private var commitObservers: [WeakObserver] = []

    nonisolated init() {}

    private var addsSinceSweep = 0

    /// Registers a live object. Entries of released ones are swept as registrations go on, so
    /// the registry stays proportional to the live objects alive.
    func addObject(_ listener: any CacheChangeListener, table: String, id: String) {
        objects[table, default: [:]][id, default: []].append(Weak(listener: listener))
        sweepIfDue()
    }

    /// Registers a live collection.
    func addCollection(_ listener: any CacheChangeListener, table: String) {
        collections[table, default: []].append(Weak(listener: listener))
        sweepIfDue()
    }

    /// Registers an observer of every commit; registering one twice does nothing.
    func addCommitObserver(_ observer: any StoreCommitObserver) {
        commitObservers.removeAll { $0.observer == nil }
        guard !commitObservers.contains(where: { $0.observer === observer }) else { return }
        commitObservers.append(WeakObserver(observer: observer))
    }

    /// Unregisters an observer of every commit.
    func removeCommitObserver(_ observer: any StoreCommitObserver) {
        commitObservers.removeAll { $0.observer == nil || $0.observer === observer }
    }

    /// The number of registered observers of every commit still alive, for tests.
    var liveCommitObserverCount: Int { commitObservers.count { $0.observer != nil } }

    /// The number of registered listeners still alive, for tests.
    var liveListenerCount: Int {
        objects.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.filter { $0.listener != nil }.count } }
            + collections.values.reduce(0) { $0 + $1.filter { $0.listener != nil }.count }
    }

    private func sweepIfDue() {
        addsSinceSweep += 1
        guard addsSinceSweep >= 256 else { return }
        addsSinceSweep = 0
        for table in objects.keys {
            objects[table] = objects[table]?.compactMapValues { entries in
                let alive = entries.filter { $0.listener != nil }
                return alive.isEmpty ? nil : alive
            }
        }
        for table in collections.keys { collections[table]?.removeAll { $0.listener == nil } }
    }

    /// Tells every listener concerned, then every observer of all commits. Listeners are
    /// collected first and called after, so a listener that adds or removes listeners does not
    /// disturb this round.
    ///
    /// - Parameters:
    ///   - change: every row the commit changed.
    ///   - external: the part of `change` that other connections or a recovery made; nil when
    ///     all of it (commits found through the change log, a rebuilt cache).
    ///   - notes: the notes of the store's own writes that committed.
    ///   - prepared: what the store read for some listeners with the change, by the listener's
    ///     identity (see ``ChangePreparers``).
    func publish(
        _ change: StoreChange, external: StoreChange? = nil, notes: [any Sendable] = [],
        prepared: [ObjectIdentifier: any Sendable] = [:]
    ) {
        var targets: [(any CacheChangeListener, TableChange)] = []
        for (table, tableChange) in change {
            if let byID = objects[table] {
                if tableChange.isWholeTable {
                    for entries in byID.values { targets += entries.compactMap { $0.listener.map { ($0, tableChange) } } }
                } else if tableChange.ids.count < byID.count {
                    for id in tableChange.ids {
                        targets += (byID[id] ?? []).compactMap { $0.listener.map { ($0, tableChange) } }
                    }
                } else {
                    for (id, entries) in byID where tableChange.ids.contains(id) {
                        targets += entries.compactMap { $0.listener.map { ($0, tableChange) } }
                    }
                }
            }
            if let list = collections[table] {
                targets += list.compactMap { $0.listener.map { ($0, tableChange) } }
                if list.contains(where: { $0.listener == nil }) { collections[table]?.removeAll { $0.listener == nil } }
            }
        }
        for (listener, tableChange) in targets {
            listener.cacheDidChange(tableChange, prepared: prepared[ObjectIdentifier(listener)])
        }
        guard !commitObservers.isEmpty else { return }
        let delivery = StoreChangeDelivery(external: external ?? change, notes: notes)
        for observer in commitObservers.compactMap(\.observer) { observer.storeDidCommit(delivery) }
    }
}
