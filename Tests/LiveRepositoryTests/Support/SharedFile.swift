import Foundation
import TestSupport
@testable import LiveRepository

/// Helpers for the tests of stores that share one file: a listener that records what a store's
/// hub publishes, a delivery log that checks each change set, and the helper process.

/// Records every change a store publishes for one table, straight from its hub.
@MainActor
final class PublishedChanges: CacheChangeListener {
    let log = Deliveries<TableChange>()

    init(_ store: LiveStore, table: String = Note.table.name) {
        store.hub.addCollection(self, table: table)
    }

    func cacheDidChange(_ change: TableChange) { log.record(change) }
}

/// The deliveries of a live collection of notes, each checked as it comes: its change set leads
/// from the rows of the delivery before to its rows (matched by id).
@MainActor
final class CheckedDeliveries {
    typealias Seen = (ids: [String], bodies: [String], change: CollectionChange?)
    let log = Deliveries<Seen>()
    /// Deliveries whose change set does not lead from the previous rows to the new ones.
    private(set) var inconsistencies: [String] = []
    private var token: NotificationToken?
    private var previous: [String]?

    init(_ collection: LiveCollection<Note>) {
        token = collection.observe { [unowned self] collection, change, _ in
            let rows = collection.allObjects()
            let ids = rows.map(\.id)
            if let previous, let change {
                let applied = change.applied(to: previous) { ids[$0] }
                if applied != ids { inconsistencies.append("\(previous) + \(change) gave \(applied), not \(ids)") }
            }
            previous = ids
            log.record((ids, rows.map(\.body), change))
        }
    }
}

/// The notes `p<first>`... as the helper's `store-write` writes them (rank = number).
func helperNoteIDs(_ range: ClosedRange<Int>) -> [String] { range.map { "p\($0)" } }

/// Runs `LiveTestHelper` with `arguments` and returns its exit status and output lines.
func runHelper(_ arguments: [String]) async throws -> (status: Int32, lines: [String]) {
    let helper = try HelperProcess(arguments)
    let status = await helper.exitStatus()
    return (status, helper.allLines)
}
