import Foundation
import TestSupport
@testable import LiveRepository
import Testing

/// The change hub's observers of every commit: they hear the notes of the store's own writes that
/// committed, in order, and as `external` the rows other connections changed.
@MainActor
@Suite(.timeLimit(.minutes(3))) struct ChangeHubTests {
    struct Abort: Error {}

    /// Records every delivery.
    final class Observer: StoreCommitObserver {
        var deliveries: [StoreChangeDelivery] = []
        func storeDidCommit(_ delivery: StoreChangeDelivery) { deliveries.append(delivery) }
        var notes: [String] { deliveries.flatMap { $0.notes.compactMap { $0 as? String } } }
    }

    /// Queues a noted write; returns whether it committed, once its completion ran.
    private func write(
        _ store: LiveStore, note: String, _ body: @escaping @Sendable (CacheTransaction) throws -> Void
    ) async -> Bool {
        await withCheckedContinuation { continuation in
            store.enqueueWrite(noting: { transaction in
                try body(transaction)
                return note
            }) { error in continuation.resume(returning: error == nil) }
        }
    }

    /// The outcomes of queued writes, by note.
    @MainActor final class Outcomes {
        var committed: [String: Bool] = [:]
    }

    private func enqueue(
        _ store: LiveStore, note: String, _ outcomes: Outcomes,
        _ body: @escaping @Sendable (CacheTransaction) throws -> Void
    ) {
        store.enqueueWrite(noting: { transaction in
            try body(transaction)
            return note
        }) { error in outcomes.committed[note] = error == nil }
    }

    @Test func notesOfCommittedWritesArriveInOrderBeforeTheirCompletionAndRolledBackOnesNever() async throws {
        let store = try await makeNoteStore()
        let observer = Observer()
        store.addCommitObserver(observer)
        // Queued together: in one transaction or several, the failing one is undone alone.
        let outcomes = Outcomes()
        enqueue(store, note: "first", outcomes) { try $0.upsert(Note(id: "a", rank: 1)) }
        enqueue(store, note: "failing", outcomes) { transaction in
            try transaction.upsert(Note(id: "b", rank: 2))
            throw Abort()
        }
        enqueue(store, note: "unchanged", outcomes) { _ in }
        // Writes commit in order: once this one returns, the three completions have run.
        try await store.write { _ in }
        #expect(outcomes.committed == ["first": true, "failing": false, "unchanged": true])
        // A write that changed nothing still brings its note: its writer said what it wrote.
        #expect(observer.notes == ["first", "unchanged"])
        #expect(observer.deliveries.allSatisfy { $0.external.isEmpty })
        // A write without a note is heard as nothing external either.
        let before = observer.deliveries.count
        try await store.write { try $0.upsert(Note(id: "c", rank: 3)) }
        #expect(observer.deliveries.count == before + 1)
        #expect(observer.deliveries.last.map { $0.notes.isEmpty && $0.external.isEmpty } == true)
    }

    @Test func anotherStoresCommitArrivesAsTheRowsItChanged() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let writer = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        let watcher = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        let observer = Observer()
        watcher.addCommitObserver(observer)
        #expect(await write(writer, note: "elsewhere") { try $0.upsert(Note(id: "x", rank: 1)) })
        await watcher.checkForExternalChanges()
        #expect(observer.notes.isEmpty, "notes stay in the process of the store that wrote them")
        #expect(observer.deliveries.map { $0.external[Note.table.name]?.ids } == [["x"]])
        // The watcher's own write after another store's: both in one delivery, each in its place.
        #expect(await write(writer, note: "elsewhere") { try $0.upsert(Note(id: "y", rank: 2)) })
        #expect(await write(watcher, note: "here") { try $0.upsert(Note(id: "z", rank: 3)) })
        #expect(observer.deliveries.last?.notes.compactMap { $0 as? String } == ["here"])
        #expect(observer.deliveries.last?.external[Note.table.name]?.ids == ["y"])
        await writer.close()
        await watcher.close()
    }

    @Test func aReleasedOrRemovedObserverHearsNothing() async throws {
        let store = try await makeNoteStore()
        var released: Observer? = Observer()
        let removed = Observer()
        store.addCommitObserver(try #require(released))
        store.addCommitObserver(removed)
        store.addCommitObserver(removed)
        #expect(store.hub.liveCommitObserverCount == 2)
        weak let weakReleased = released
        released = nil
        #expect(weakReleased == nil)
        store.removeCommitObserver(removed)
        #expect(store.hub.liveCommitObserverCount == 0)
        #expect(await write(store, note: "unheard") { try $0.upsert(Note(id: "a", rank: 1)) })
        #expect(removed.deliveries.isEmpty)
    }
}
