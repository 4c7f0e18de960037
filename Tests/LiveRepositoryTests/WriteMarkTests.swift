import Foundation
import TestSupport
@testable import LiveRepository
import Testing

/// A store's write marks: what the writes after a mark changed, in the store's own order, as a
/// write that stores a server page asks it (the page's observers may not have heard of those
/// writes yet).
@Suite(.timeLimit(.minutes(1))) struct WriteMarkTests {
    /// `changes(in:since:)` for the notes table, asked in a write of `store`: the ids, or nil
    /// when the table changed whole.
    func notesChanged(in store: LiveStore, since mark: WriteMark, writing note: Note? = nil) async throws -> Set<String>? {
        try await store.write { transaction in
            if let note { try transaction.upsert(note) }
            let change = transaction.changes(in: Note.table.name, since: mark)
            return change.isWholeTable ? nil : change.ids
        }
    }

    @Test func aMarkHasTheRowsWrittenAfterItNotBefore() async throws {
        let store = try LiveStore(location: .inMemory, migrations: Note.migrations)
        try await store.write { try $0.upsert(contentsOf: Note.numbered(2)) }
        let mark = store.markWrites()
        #expect(try await notesChanged(in: store, since: mark) == [])
        try await store.write { transaction in
            try transaction.upsert(Note(id: "n2", rank: 2, body: "edited"))
            try transaction.upsert(Note(id: "n3", rank: 3, body: "new"))
        }
        try await store.write { try $0.delete(Note.self, id: "n1") }
        // The asking write's own writes so far count too.
        let changed = try await notesChanged(in: store, since: mark, writing: Note(id: "n4", rank: 4, body: "own"))
        #expect(changed == ["n1", "n2", "n3", "n4"])
        // A later mark starts empty; an ended one records nothing more.
        let later = store.markWrites()
        #expect(try await notesChanged(in: store, since: later) == [])
        mark.end()
        try await store.write { try $0.upsert(Note(id: "n5", rank: 5, body: "after the end")) }
        #expect(mark.committed(in: Note.table.name)?.ids.contains("n5") == false)
        #expect(try await notesChanged(in: store, since: later) == ["n5"])
    }

    @Test func writesQueuedBeforeAMarkThatCommitWithLaterOnesCountToo() async throws {
        let store = try LiveStore(location: .inMemory, migrations: Note.migrations)
        // Both writes are queued before either runs: one transaction takes both.
        let gate = DispatchSemaphore(value: 0)
        store.enqueueWrite { _ in gate.wait() }
        store.enqueueWrite { try $0.upsert(Note(id: "before", rank: 1, body: "queued before the mark")) }
        let mark = store.markWrites()
        store.enqueueWrite { try $0.upsert(Note(id: "after", rank: 2, body: "queued after the mark")) }
        gate.signal()
        let changed = try await notesChanged(in: store, since: mark)
        #expect(changed?.contains("after") == true)
        #expect(changed?.isSubset(of: ["before", "after"]) == true, "more than the writes after the mark, never fewer")
    }

    @Test func aTableChangedWholeMakesEveryRowPossiblyNew() async throws {
        let store = try LiveStore(location: .inMemory, migrations: Note.migrations)
        let mark = store.markWrites()
        try await store.write { try $0.execute("UPDATE notes SET body = 'raw'", touching: Note.table.name) }
        #expect(try await notesChanged(in: store, since: mark) == nil)
    }

    @Test func anotherConnectionsCommitsAfterTheMarkCount() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        let other = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        let mark = store.markWrites()
        try await other.write { try $0.upsert(Note(id: "elsewhere", rank: 1, body: "another connection's")) }
        // Not looked for yet: the asking write finds it as it begins.
        #expect(try await notesChanged(in: store, since: mark) == ["elsewhere"])
    }

    @Test func aMarkLetGoOfIsForgotten() async throws {
        let store = try LiveStore(location: .inMemory, migrations: Note.migrations)
        weak var released: WriteMark?
        do {
            let mark = store.markWrites()
            released = mark
        }
        try await store.write { try $0.upsert(Note(id: "n1", rank: 1, body: "one")) }
        #expect(released == nil, "the store holds its marks weakly")
    }
}
