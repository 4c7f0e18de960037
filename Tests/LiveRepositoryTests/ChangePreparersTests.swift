import Foundation
import TestSupport
@testable import LiveRepository
import Testing

/// A store that finds another store's commits reads, in the same look, what its idle live
/// collections need of them, and the change and the read reach each collection in one hop.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ChangePreparersTests {
    /// Two stores on one new file: `writer` holds `notes`; `watcher` is not woken by the
    /// writer's commits (it polls once a minute), and looks when asked or when the monitor's
    /// timer, ticking for other stores of the process, finds the file changed.
    func makeStores(_ notes: [Note], in directory: TemporaryDirectory) async throws -> (writer: LiveStore, watcher: LiveStore) {
        let url = directory.file("shared.sqlite")
        let writer = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        try await writer.write { try $0.upsert(contentsOf: notes) }
        let watcher = try LiveStore(location: .file(url), migrations: Note.migrations,
                                    externalChanges: .polling(every: .seconds(60)))
        return (writer, watcher)
    }

    func collection(of store: LiveStore, pageSize: Int) -> LiveCollection<Note> {
        LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), pageSize: pageSize, fetchPage: nil)
    }

    @Test func anIdleCollectionGetsAnotherStoresCommitWithTheReadMadeInTheLook() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(3), in: directory)
        let collection = collection(of: watcher, pageSize: 10)
        let deliveries = CheckedDeliveries(collection)
        #expect(try await deliveries.log.next().ids == ["n1", "n2", "n3"])
        await settle(watcher)
        let started = collection.state.loading.jobs.started

        try await writer.write { transaction in
            try transaction.upsert(Note(id: "n4", rank: 4))
            try transaction.upsert(Note(id: "n2", rank: 2, body: "edited"))
        }
        await watcher.checkForExternalChanges()
        let seen = try await deliveries.log.next()
        #expect(seen.ids == ["n1", "n2", "n3", "n4"])
        #expect(seen.change == CollectionChange(insertions: [3], modifications: [1]))
        #expect(seen.bodies[1] == "edited")
        // Delivered from the look's read: the collection read nothing of its own.
        #expect(collection.state.loading.jobs.preparedCount == 1)
        #expect(collection.state.loading.jobs.started == started + 1)
        #expect(deliveries.inconsistencies.isEmpty)
    }

    @Test func aReadPreparedFromAWindowTheCollectionHasLeftIsNotApplied() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(4), in: directory)
        let collection = collection(of: watcher, pageSize: 2)
        let deliveries = CheckedDeliveries(collection)
        #expect(try await deliveries.log.next().ids == ["n1", "n2"])
        await settle(watcher)

        try await writer.write { try $0.upsert(Note(id: "n0", rank: 0)) }
        let rowid = try #require(try await writer.read {
            try $0.queryFirst("SELECT rowid FROM notes WHERE id = 'n0'") { $0.int64(0) }
        })
        let change = TableChange(rowids: [rowid], ids: ["n0"])
        // Read as a look would, from the idle window (n1, n2)...
        let preparers = watcher.preparers
        let prepared = try await watcher.read { connection in
            preparers.prepare([Note.table.name: change], connection: connection)
        }
        let stale = try #require(prepared[ObjectIdentifier(collection)])
        // ...but handed over only once the collection has moved on: a page more, and the commit
        // taken in by that page's read.
        collection.nextPage()
        while try await deliveries.log.next().ids != ["n0", "n1", "n2", "n3", "n4"] {}
        await settle(watcher)

        // (The monitor's timer, ticking for other tests' files, may have made this store look
        // and apply a read of its own meanwhile: the count is compared, not zero.)
        let applied = collection.state.loading.jobs.preparedCount
        collection.cacheDidChange(change, prepared: stale)
        await settle(watcher)
        #expect(collection.allObjects().map(\.id) == ["n0", "n1", "n2", "n3", "n4"])
        #expect(collection.state.loading.jobs.preparedCount == applied)
        #expect(deliveries.inconsistencies.isEmpty)
    }
}
