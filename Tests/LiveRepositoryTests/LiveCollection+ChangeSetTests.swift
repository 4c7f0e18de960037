import TestSupport
@testable import LiveRepository
import Testing

/// The change sets of a live collection identify rows by their record's id: SQLite gives a
/// deleted row's rowid to the next insert when it was the largest, and that row is a different
/// one.
@MainActor
@Suite(.timeLimit(.minutes(3))) struct LiveCollectionChangeSetTests {
    enum Cache: CaseIterable, Sendable { case memory, file }

    /// A store of the given kind, holding `notes`; keep `directory` while it is used.
    func makeStore(_ cache: Cache, _ notes: [Note]) async throws -> (LiveStore, TemporaryDirectory?) {
        switch cache {
        case .memory: return (try await makeNoteStore(notes), nil)
        case .file:
            let directory = try TemporaryDirectory()
            return (try await makeNoteFileStore(notes, in: directory), directory)
        }
    }

    typealias Seen = (rows: [Note], change: CollectionChange?)

    func observe(_ collection: LiveCollection<Note>) -> (Deliveries<Seen>, NotificationToken) {
        let log = Deliveries<Seen>()
        let token = collection.observe { collection, change, _ in log.record((collection.allObjects(), change)) }
        return (log, token)
    }

    @Test(arguments: Cache.allCases)
    func aRowReplacedInOneWriteIsADeletionAndAnInsertion(cache: Cache) async throws {
        // r1...r5, r5 written last: it has the largest rowid.
        let (store, directory) = try await makeStore(cache, (1...5).map { Note(id: "r\($0)", rank: $0) })
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: nil)
        let (log, token) = observe(collection)
        #expect(try await log.next().rows.map(\.id) == ["r1", "r2", "r3", "r4", "r5"])
        try await store.write { transaction in
            try transaction.delete(Note.self, id: "r5")
            try transaction.upsert(Note(id: "r6", rank: 5))
        }
        let seen = try await log.next()
        #expect(seen.rows.map(\.id) == ["r1", "r2", "r3", "r4", "r6"])
        #expect(seen.change == CollectionChange(deletions: [4], insertions: [4]))
        _ = (token, directory)
    }

    @Test(arguments: Cache.allCases)
    func aRecordDeletedAndInsertedAgainInOneWriteIsModifiedInPlace(cache: Cache) async throws {
        let (store, directory) = try await makeStore(cache, (1...3).map { Note(id: "r\($0)", rank: $0) })
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: nil)
        let (log, token) = observe(collection)
        _ = try await log.next()
        try await store.write { transaction in
            try transaction.delete(Note.self, id: "r1")
            try transaction.upsert(Note(id: "r1", rank: 1, body: "again"))
        }
        let seen = try await log.next()
        #expect(seen.rows.map(\.body) == ["again", "", ""])
        #expect(seen.change == CollectionChange(modifications: [0]))
        _ = (token, directory)
    }

    /// Random bursts that mix deletions, insertions, edits and moves in one write: every change
    /// leads from the rows delivered before to the rows delivered now, matching rows by id, and
    /// reports exactly the rows that stayed in place with new content as modifications.
    @Test(arguments: [(Cache.memory, CollectionAnchor.start, UInt64(11)), (.memory, .end, 12),
                      (.file, .start, 13), (.file, .end, 14)])
    func randomMixedBurstsGiveExactChangeSets(cache: Cache, anchor: CollectionAnchor, seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        var nextID = 0
        func newNote() -> Note {
            defer { nextID += 1 }
            return Note(id: "r\(nextID)", rank: random.below(60))
        }
        let (store, directory) = try await makeStore(cache, (0..<25).map { _ in newNote() })
        let collection = LiveCollection(
            store: store, query: CacheQuery<Note>(orderBy: "rank"), pageSize: 500, anchor: anchor, fetchPage: nil)
        let (log, token) = observe(collection)
        var previous = try await log.next().rows
        for step in 0..<60 {
            let existing = try await noteIDs(in: store)
            var operations: [(delete: String?, note: Note?)] = []
            for _ in 0..<(1 + random.below(6)) {
                switch random.below(5) {
                case 4 where !existing.isEmpty:
                    // Replace the newest row (it has the largest rowid, which the new row then
                    // takes) by a new one at the same place.
                    let newest = existing.max { Int($0.dropFirst())! < Int($1.dropFirst())! }!
                    let stored = try await store.read { try Note.read(id: newest, from: $0) }
                    operations.append((newest, nil))
                    var replacement = newNote()
                    replacement.rank = stored?.rank ?? replacement.rank
                    operations.append((nil, replacement))
                case 0 where !existing.isEmpty: operations.append((random.pick(existing), nil))
                case 1 where !existing.isEmpty:
                    operations.append((nil, Note(id: random.pick(existing), rank: random.below(60), body: "moved \(step)")))
                case 2 where !existing.isEmpty:
                    operations.append((nil, Note(id: random.pick(existing), rank: -1, body: "edited \(step)")))
                default: operations.append((nil, newNote()))
                }
            }
            try await store.write { [operations] transaction in
                for operation in operations {
                    if let id = operation.delete { try transaction.delete(Note.self, id: id) }
                    guard var note = operation.note else { continue }
                    if note.rank == -1 {  // an edit in place
                        guard let stored = try transaction.record(Note.self, id: note.id) else { continue }
                        note.rank = stored.rank
                    }
                    try transaction.upsert(note)
                }
            }
            await settle(store)
            while log.unread > 0 {
                let seen = try await log.next()
                let problems = Self.problems(of: seen.change, from: previous, to: seen.rows)
                #expect(problems.isEmpty, "seed \(seed) step \(step): \(problems.joined(separator: "; "))")
                previous = seen.rows
            }
            let cached = try await noteIDs(in: store)
            #expect(previous.map(\.id) == cached, "seed \(seed) step \(step): the window differs from the cache")
        }
        _ = (token, directory)
    }

    /// What is wrong with `change` as the way from `old` to `new`, matching rows by id.
    static func problems(of change: CollectionChange?, from old: [Note], to new: [Note]) -> [String] {
        guard let change else { return ["a delivery without a change"] }
        var problems: [String] = []
        let applied = change.applied(to: old.map(\.id)) { new[$0].id }
        if applied != new.map(\.id) { problems.append("\(change) leads to \(applied), not \(new.map(\.id))") }
        let newByID = Dictionary(uniqueKeysWithValues: new.map { ($0.id, $0) })
        let deleted = Set(change.deletions)
        for (index, row) in old.enumerated() where !deleted.contains(index) {
            let changed = newByID[row.id] != row
            if changed != change.modifications.contains(index) {
                problems.append("\(row.id) at \(index) \(changed ? "changed but is not" : "did not change but is") a modification")
            }
        }
        return problems
    }
}
