@testable import LiveRepository
import TestSupport
import Testing

/// A record with a single column, for the upsert statement's special case.
struct Tag: CacheRecord {
    var id: String
    static let table = RecordTable(name: "tags", columns: [.text("id")])
    init(id: String) { self.id = id }
    init(row: SQLiteRow) { id = row.string(0) }
    var columnValues: [SQLiteValue] { [.text(id)] }
}

@MainActor
@Suite(.timeLimit(.minutes(3))) struct CacheTransactionTests {
    @Test func upsertReportsWhetherTheCacheChanged() async throws {
        let store = try await makeNoteStore()
        let results = try await store.write { transaction -> [Bool] in
            [
                try transaction.upsert(Note(id: "a", rank: 1, body: "x")),  // insert
                try transaction.upsert(Note(id: "a", rank: 1, body: "x")),  // identical
                try transaction.upsert(Note(id: "a", rank: 1, body: "y")),  // changed
                try transaction.upsert(Note(id: "a", rank: 1, body: "y", syncState: .syncing)),  // last column changed
                try transaction.upsert(Note(id: "a", folder: "archive", rank: 1, body: "y", syncState: .syncing)),
            ]
        }
        #expect(results == [true, false, true, true, true])
        let stored = try await store.write { try $0.record(Note.self, id: "a") }
        #expect(stored == Note(id: "a", folder: "archive", rank: 1, body: "y", syncState: .syncing))
        let again = try await store.write { try $0.upsert(contentsOf: [stored!, Note(id: "b", rank: 2)]) }
        #expect(again == 1)
    }

    @Test func upsertOfASingleColumnRecord() async throws {
        let store = try LiveStore(location: .inMemory, migrations: [
            SQLiteMigration(version: 1, name: "tags", sql: Tag.table.createStatements),
        ])
        let results = try await store.write { transaction in
            [try transaction.upsert(Tag(id: "t")), try transaction.upsert(Tag(id: "t"))]
        }
        #expect(results == [true, false])
        #expect(try await store.write { try $0.record(Tag.self, id: "t") } == Tag(id: "t"))
    }

    @Test func deleteStaleClearsOnlyThePagesRangeAndKeepsLocalChanges() async throws {
        // n1…n9 by rank; n4 has a local change the server has not seen, n8 is in another folder.
        var notes = Note.numbered(9)
        notes[3].syncState = .syncing
        notes[7].folder = "archive"
        let store = try await makeNoteStore(notes)
        let inbox = CacheQuery<Note>([.equals("folder", .text("inbox"))], orderBy: "rank")
        // A page after n2 through n6 that returned n3 and n6 only.
        let deleted = try await store.write { transaction in
            try transaction.deleteStale(inbox, after: (.int(2), "n2"), through: (.int(6), "n6"), keeping: ["n3", "n6"])
        }
        // Only n5: n4 is a local change, n2 and n7 lie outside the range.
        #expect(deleted == 1)
        let left = try await store.read { try Note.read(CacheQuery<Note>(orderBy: "rank"), from: $0).map(\.id) }
        #expect(left == ["n1", "n2", "n3", "n4", "n6", "n7", "n8", "n9"])

        // A last page (no end) newest first from n9 down: everything older that it did not return goes.
        let newestFirst = inbox.reversed
        let last = try await store.write { transaction in
            try transaction.deleteStale(newestFirst, after: (.int(9), "n9"), through: nil, keeping: ["n3"])
        }
        let after = try await store.read { try Note.read(CacheQuery<Note>(orderBy: "rank"), from: $0).map(\.id) }
        #expect(after == ["n3", "n4", "n8", "n9"])
        #expect(last == 4)  // n1, n2, n6, n7
    }

    @Test func aServerPageKeepsTheRowsWrittenSinceItsMarkAndDeletesTheStaleOnes() async throws {
        // n1…n6 by rank; n4 has a local change the server has not seen.
        var notes = Note.numbered(6)
        notes[3].syncState = .syncing
        let store = try await makeNoteStore(notes)
        let mark = store.markWrites()
        // Written after the request went out: newer than the page, heard of or not.
        try await store.write { transaction in
            try transaction.upsert(Note(id: "n3", rank: 3, body: "arrived"))
            try transaction.upsert(Note(id: "n5", rank: 5, body: "newer"))
        }
        // A first page through n6 that returned n1, n5 (an older copy) and n6.
        let page = [Note(id: "n1", rank: 1, body: "server"), Note(id: "n5", rank: 5, body: "older"), Note(id: "n6", rank: 6, body: "server")]
        let inbox = CacheQuery<Note>([.equals("folder", .text("inbox"))], orderBy: "rank")
        try await store.write { transaction in
            try transaction.storeServerPage(page, of: inbox, after: nil, through: (.int(6), "n6"), since: mark)
        }
        let left = try await store.read { try Note.read(CacheQuery<Note>(orderBy: "rank"), from: $0) }
        // n2 is stale; n3 and n5 stay as written after the mark; n4 is a local change.
        #expect(left.map(\.id) == ["n1", "n3", "n4", "n5", "n6"])
        #expect(left.map(\.body) == ["server", "arrived", "note 4", "newer", "server"])
    }

    @Test func aServerPageAfterATableChangedWholeDeletesNothingAndKeepsTheTrackedRows() async throws {
        let store = try await makeNoteStore(Note.numbered(4))
        let mark = store.markWrites()
        try await store.write { transaction in
            try transaction.execute("UPDATE notes SET body = 'raw' WHERE id = 'n4'", touching: Note.table.name)
            try transaction.upsert(Note(id: "n2", rank: 2, body: "tracked"))
        }
        // A last page that returned n1 and n2 only: n3 and n4 may be new, so nothing goes.
        let page = [Note(id: "n1", rank: 1, body: "server"), Note(id: "n2", rank: 2, body: "server")]
        try await store.write { transaction in
            try transaction.storeServerPage(page, of: CacheQuery<Note>(orderBy: "rank"), after: nil, through: nil, since: mark)
        }
        let left = try await store.read { try Note.read(CacheQuery<Note>(orderBy: "rank"), from: $0) }
        #expect(left.map(\.id) == ["n1", "n2", "n3", "n4"])
        #expect(left.map(\.body) == ["server", "tracked", "note 3", "raw"])
    }

    @Test func aServerPageThatProvesNothingDeletesNothingAndStoresThroughTheGivenWrite() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let mark = store.markWrites()
        try await store.write { try $0.upsert(Note(id: "n2", rank: 2, body: "newer")) }
        let page = [Note(id: "n2", rank: 2, body: "older"), Note(id: "n9", rank: 9, body: "server")]
        let stored = try await store.write { transaction in
            var stored: [String] = []
            try transaction.storeServerPage(page, of: CacheQuery<Note>(orderBy: "rank"), after: nil, through: nil,
                                            provesRange: false, since: mark) { notes in
                stored = notes.map(\.id)
                try transaction.upsert(contentsOf: notes.map { Note(id: $0.id, rank: $0.rank, body: $0.body + " (stored)") })
            }
            return stored
        }
        // The given write gets the records the page may replace: not n2, written since the mark.
        #expect(stored == ["n9"])
        let left = try await store.read { try Note.read(CacheQuery<Note>(orderBy: "rank"), from: $0) }
        #expect(left.map(\.id) == ["n1", "n2", "n3", "n9"])
        #expect(left.map(\.body) == ["note 1", "newer", "note 3", "server (stored)"])
    }

    @Test func deleteReportsWhetherARowWasDeleted() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1)])
        let results = try await store.write { transaction in
            [try transaction.delete(Note.self, id: "a"), try transaction.delete(Note.self, id: "a"),
             try transaction.delete(Note.self, id: "missing")]
        }
        #expect(results == [true, false, false])
        #expect(try await store.write { try $0.record(Note.self, id: "a") } == nil)
    }

    @Test func recordsMatchingAQueryComeInItsOrderUpToTheLimit() async throws {
        var notes = Note.numbered(6)
        notes.append(Note(id: "b-tie", rank: 3))
        notes.append(Note(id: "z-tie", rank: 3))
        notes.append(Note(id: "other", folder: "archive", rank: 2))
        let store = try await makeNoteStore(notes)
        let ascending = CacheQuery<Note>([.equals("folder", "inbox")], orderBy: "rank")
        let descending = CacheQuery<Note>([.equals("folder", "inbox")], orderBy: "rank", ascending: false)
        let (up, down, limited, none, greater) = try await store.write { transaction in
            (try transaction.records(matching: ascending).map(\.id),
             try transaction.records(matching: descending).map(\.id),
             try transaction.records(matching: ascending, limit: 2).map(\.id),
             try transaction.records(matching: ascending, limit: 0).map(\.id),
             try transaction.records(matching: CacheQuery<Note>([.greaterThan("rank", 4), .notEquals("folder", "archive")],
                                                                 orderBy: "rank")).map(\.id))
        }
        #expect(up == ["n1", "n2", "b-tie", "n3", "z-tie", "n4", "n5", "n6"])
        #expect(down == up.reversed())
        #expect(limited == ["n1", "n2"])
        #expect(none.isEmpty)
        #expect(greater == ["n5", "n6"])
    }

    @Test func predicatesFilterAsDocumented() async throws {
        let store = try await makeNoteStore([
            Note(id: "a", folder: "inbox", rank: 1), Note(id: "b", folder: "sent", rank: 2),
            Note(id: "c", folder: "archive", rank: 3),
        ])
        func ids(_ predicates: [CachePredicate]) async throws -> [String] {
            let query = CacheQuery<Note>(predicates, orderBy: "rank")
            return try await store.write { try $0.records(matching: query).map(\.id) }
        }
        #expect(try await ids([.oneOf("folder", ["inbox", "archive"])]) == ["a", "c"])
        #expect(try await ids([.oneOf("folder", [])]).isEmpty)
        #expect(try await ids([.lessThan("rank", 3)]) == ["a", "b"])
        #expect(try await ids([.isNull("folder")]).isEmpty)
        #expect(try await ids([.isNotNull("folder")]) == ["a", "b", "c"])
        #expect(try await ids([.notEquals("folder", "sent"), .greaterThan("rank", 1)]) == ["c"])
        #expect(try await ids([]) == ["a", "b", "c"])
    }

    @Test func executeTouchingATableMakesCollectionsReread() async throws {
        let store = try await makeNoteStore(Note.numbered(3))
        let collection = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: nil)
        let log = Deliveries<[String]>()
        let token = collection.observe { collection, _, _ in log.record(collection.allObjects().map(\.body)) }
        _ = try await log.next()
        try await store.write { try $0.execute("UPDATE notes SET body = 'raw' WHERE rank = 2", touching: "notes") }
        #expect(try await log.next() == ["note 1", "raw", "note 3"])
        _ = token
    }

    @Test func executeTouchingATableReachesLiveObjects() async throws {
        let store = try await makeNoteStore(Note.numbered(2))
        let object = LiveObject<Note>(store: store, id: "n2", fetch: nil)
        let log = Deliveries<String?>()
        let token = object.observe { object, _ in log.record(object.snapshot?.body) }
        _ = try await log.next()
        try await store.write { try $0.execute("UPDATE notes SET body = 'raw'", touching: "notes") }
        #expect(try await log.next() == "raw")
        _ = token
    }

    @Test func changesOfAFailedWriteAreNotReported() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1)])
        let object = LiveObject<Note>(store: store, id: "a", fetch: nil)
        let log = Deliveries<String?>()
        let token = object.observe { object, _ in log.record(object.snapshot?.body) }
        _ = try await log.next()
        struct Failure: Error {}
        _ = try? await store.write { transaction in
            try transaction.upsert(Note(id: "a", rank: 1, body: "rolled back"))
            try transaction.execute("UPDATE notes SET body = 'raw'", touching: "notes")
            throw Failure()
        }
        #expect(try await store.write { try $0.record(Note.self, id: "a") }?.body == "")
        await settle(store)
        #expect(log.unread == 0)
        _ = token
    }

    @Test func theTransactionRecordsTouchedRows() throws {
        let connection = try SQLiteConnection(location: .inMemory)
        try connection.executeScript(Note.table.createStatements)
        let transaction = CacheTransaction(connection: connection)
        try transaction.run { try $0.upsert(Note(id: "a", rank: 1)); try $0.upsert(Note(id: "b", rank: 2)) }
        try transaction.run { try $0.upsert(Note(id: "a", rank: 1)) }  // identical: nothing
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try transaction.run { try $0.upsert(Note(id: "c", rank: 3)); throw Failure() }
        }
        let change = try #require(transaction.change["notes"])
        #expect(change.ids == ["a", "b"])
        #expect(change.rowids.count == 2)
        #expect(!change.isWholeTable)
        #expect(try connection.query("SELECT id FROM notes ORDER BY id") { $0.string(0) } == ["a", "b"])
    }
}
