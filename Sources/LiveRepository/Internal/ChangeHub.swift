/// Something on the main actor that hears about committed cache changes.
@MainActor
protocol CacheChangeListener: AnyObject {
    /// Called on the main actor after a transaction that touched the listener's table commits.
    func cacheDidChange(_ change: TableChange)
}

/// Routes committed changes to the live objects and collections that read the touched rows.
///
/// Live objects are found by table and `id`, collections by table, both held weakly: a live
/// object or collection that nobody keeps is simply skipped and swept.
@MainActor
final class ChangeHub {
    private struct Weak {
        weak var listener: (any CacheChangeListener)?
    }

    private var objects: [String: [String: [Weak]]] = [:]
    private var collections: [String: [Weak]] = [:]

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

    /// Tells every listener concerned. Listeners are collected first and called after, so a
    /// listener that adds or removes listeners does not disturb this round.
    func publish(_ change: StoreChange) {
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
        for (listener, tableChange) in targets { listener.cacheDidChange(tableChange) }
    }
}
