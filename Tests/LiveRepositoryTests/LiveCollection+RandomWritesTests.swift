import TestSupport
@testable import LiveRepository
import Testing

/// A property test of ``LiveCollection``: random writes, pages and raw statements on a collection
/// whose window is anchored at either end.
@MainActor
@Suite(.timeLimit(.minutes(3))) struct LiveCollectionRandomWritesTests {
    /// Random writes on a collection: every delivered change leads from the previous delivered ids
    /// to the new ones, and once quiet the ids are exactly the query's rows through the boundary.
    @Test(arguments: [(CollectionAnchor.start, UInt64(1)), (.start, 2), (.end, 3), (.end, 4), (.start, 5), (.end, 6)])
    func randomWritesKeepDeliveriesConsistent(anchor: CollectionAnchor, seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let initial = (0..<30).map { Note(id: "r\($0)", folder: random.chance(80) ? "inbox" : "archive", rank: random.below(40)) }
        let store = try await makeNoteStore(initial)
        let collection = LiveCollection(store: store, query: CacheQuery<Note>([.equals("folder", "inbox")], orderBy: "rank"),
                                        pageSize: 7, anchor: anchor, fetchPage: nil)
        typealias Seen = (ids: [String], change: CollectionChange?)
        let log = Deliveries<Seen>()
        let token = collection.observe { collection, change, _ in
            log.record((collection.allObjects().map(\.id), change))
        }
        var previous = try await log.next().ids
        var nextID = 30
        for step in 0..<120 {
            let existing = try await noteIDs(in: store)
            switch random.index(weightedBy: [3, 3, 2, 2, 1, 1]) {
            case 0:  // insert
                let note = Note(id: "r\(nextID)", folder: random.chance(80) ? "inbox" : "archive", rank: random.below(40))
                nextID += 1
                try await store.write { try $0.upsert(note) }
            case 1:  // move (change rank) and/or edit
                guard !existing.isEmpty else { continue }
                let id = random.pick(existing)
                let rank = random.below(40)
                let body = random.chance(50) ? "edit \(step)" : ""
                try await store.write { transaction in
                    guard var note = try transaction.record(Note.self, id: id) else { return }
                    note.rank = rank
                    note.body = body
                    try transaction.upsert(note)
                }
            case 2:  // delete
                guard !existing.isEmpty else { continue }
                let id = random.pick(existing)
                try await store.write { try $0.delete(Note.self, id: id) }
            case 3:  // several changes in one transaction
                let picks = existing.isEmpty ? [] : (0..<3).map { _ in random.pick(existing) }
                let folders = picks.map { _ in random.chance(50) ? "inbox" : "archive" }
                let ranks = picks.map { _ in random.below(40) }
                let newNote = Note(id: "r\(nextID)", rank: random.below(40))
                nextID += 1
                try await store.write { transaction in
                    for (index, id) in picks.enumerated() {
                        guard var note = try transaction.record(Note.self, id: id) else { continue }
                        note.folder = folders[index]
                        note.rank = ranks[index]
                        try transaction.upsert(note)
                    }
                    try transaction.upsert(newNote)
                }
            case 4:  // page
                if anchor == .start { collection.nextPage() } else { collection.previousPage() }
            default:  // a raw statement touching the whole table
                let delta = random.below(3) - 1
                try await store.write { try $0.execute("UPDATE notes SET rank = rank + ? WHERE rank % 5 = 0", [.int(delta)], touching: "notes") }
            }
            await settle(store)
            while log.unread > 0 {
                let seen = try await log.next()
                #expect(seen.change != nil, "seed \(seed) step \(step): a delivery without a change")
                if let change = seen.change {
                    let applied = change.applied(to: previous) { seen.ids[$0] }
                    #expect(applied == seen.ids, "seed \(seed) step \(step): \(change) does not lead from \(previous) to \(seen.ids)")
                }
                previous = seen.ids
            }
            #expect(previous == collection.allObjects().map(\.id), "seed \(seed) step \(step): undelivered change")
            let expected = try await expectedIDs(store, boundary: collection.state.window.boundary, anchor: anchor)
            #expect(previous == expected, "seed \(seed) step \(step): window differs from the query")
        }
        _ = token
    }

    /// The query's rows through `boundary`, read with SQL, in query order (ascending rank, id).
    func expectedIDs(_ store: LiveStore, boundary: CollectionWindow.Boundary, anchor: CollectionAnchor) async throws -> [String] {
        guard case .through(let key) = boundary else { return try await noteIDs(in: store, where: "folder = 'inbox'") }
        let comparison = anchor == .start ? "(rank < ? OR (rank = ? AND id <= ?))" : "(rank > ? OR (rank = ? AND id >= ?))"
        return try await noteIDs(in: store, where: "folder = 'inbox' AND " + comparison, [key.value, key.value, .text(key.id)])
    }
}
