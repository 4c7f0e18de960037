import Foundation

/// Something that reads, on the store's queue, what a change found there means for it, before
/// the change goes to the main actor: a live collection's refresh of the rows a commit of
/// another process touched. The change and that read then reach the main actor in one hop,
/// instead of a hop to tell the collection, a hop back to the queue to read and a hop to deliver.
protocol ChangePreparer: AnyObject, Sendable {
    /// The identity of the listener (in the ``ChangeHub``) the prepared value is for.
    var listener: ObjectIdentifier { get }

    /// On the store's queue, inside the read transaction that found `change`, so that what it
    /// reads is exactly the state `change` leads to: the value to hand to the listener, or nil
    /// (nothing prepared: the listener reads as it would without it).
    func prepare(_ change: TableChange, connection: SQLiteConnection) -> (any Sendable)?
}

/// A store's preparers, by table, held weakly: one that is released is skipped and swept.
///
/// `@unchecked Sendable`: `lock` guards `byTable`. The preparers are called outside it.
final class ChangePreparers: @unchecked Sendable {
    private struct Weak {
        weak var preparer: (any ChangePreparer)?
    }

    private let lock = NSLock()
    private var byTable: [String: [Weak]] = [:]

    /// Registers `preparer` for changes of `table`.
    func add(_ preparer: any ChangePreparer, table: String) {
        lock.withLock {
            byTable[table, default: []].removeAll { $0.preparer == nil }
            byTable[table, default: []].append(Weak(preparer: preparer))
        }
    }

    /// Whether any preparer is registered (alive or not swept yet). Asked at every look for other
    /// processes' commits: closures here, not key paths, each use of which is a call into the runtime.
    var isEmpty: Bool { lock.withLock { byTable.values.allSatisfy { $0.isEmpty } } }

    /// On the store's queue, inside the read transaction that found `change`: what each
    /// preparer of a changed table prepared, by its listener's identity.
    func prepare(_ change: StoreChange, connection: SQLiteConnection) -> [ObjectIdentifier: any Sendable] {
        let found = lock.withLock { () -> [(any ChangePreparer, TableChange)] in
            var found: [(any ChangePreparer, TableChange)] = []
            for (table, tableChange) in change {
                guard let entries = byTable[table] else { continue }
                let alive = entries.compactMap { $0.preparer }
                if alive.count < entries.count { byTable[table]?.removeAll { $0.preparer == nil } }
                found += alive.map { ($0, tableChange) }
            }
            return found
        }
        var prepared: [ObjectIdentifier: any Sendable] = [:]
        for (preparer, tableChange) in found {
            if let value = preparer.prepare(tableChange, connection: connection) { prepared[preparer.listener] = value }
        }
        return prepared
    }
}
