import Foundation
import TestSupport
@testable import LiveRepository
import Testing

/// Stores that share one file notice each other's commits (and other processes' and raw
/// writers') and tell their observers as they do for their own writes.
@MainActor
@Suite(.timeLimit(.minutes(3))) struct LiveStoreExternalChangesTests {
    struct Abort: Error {}

    /// Two stores on one new file: `writer` holds `notes`; `watcher` looks only when asked.
    func makeStores(_ notes: [Note], watcher detection: ExternalChangeDetection = .off,
                    in directory: TemporaryDirectory) async throws -> (writer: LiveStore, watcher: LiveStore) {
        let url = directory.file("shared.sqlite")
        let writer = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        if !notes.isEmpty { try await writer.write { try $0.upsert(contentsOf: notes) } }
        let watcher = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: detection)
        return (writer, watcher)
    }

    func collection(of store: LiveStore) -> LiveCollection<Note> {
        LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), pageSize: 2_000, fetchPage: nil)
    }

    @Test func aWriteInOneStoreReachesTheOthersCollectionAndObjectWithTheRightChangeSet() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(5), in: directory)
        let deliveries = CheckedDeliveries(collection(of: watcher))
        #expect(try await deliveries.log.next().ids == ["n1", "n2", "n3", "n4", "n5"])
        let object = LiveObject<Note>(store: watcher, id: "n4", fetch: nil)
        let bodies = Deliveries<String?>()
        let token = object.observe { object, _ in bodies.record(object.snapshot?.body) }
        #expect(try await bodies.next() == "note 4")

        try await writer.write { transaction in
            try transaction.delete(Note.self, id: "n2")
            try transaction.upsert(Note(id: "n6", rank: 0, body: "first"))
            try transaction.upsert(Note(id: "n4", rank: 4, body: "edited"))
        }
        await watcher.checkForExternalChanges()
        let seen = try await deliveries.log.next()
        #expect(seen.ids == ["n6", "n1", "n3", "n4", "n5"])
        #expect(seen.change == CollectionChange(deletions: [1], insertions: [0], modifications: [3]))
        #expect(seen.bodies[3] == "edited")
        #expect(try await bodies.next() == "edited")
        #expect(deliveries.inconsistencies.isEmpty)
        _ = token
    }

    @Test func theDefaultSettingIsWokenByAnotherStoresCommitWithoutBeingAsked() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(2), watcher: .default, in: directory)
        let deliveries = CheckedDeliveries(collection(of: watcher))
        #expect(try await deliveries.log.next().ids == ["n1", "n2"])
        try await writer.write { try $0.upsert(Note(id: "n3", rank: 3)) }
        // Bounded by the suite's time limit; the writer's wake-up brings it at once.
        let seen = try await deliveries.log.next()
        #expect(seen.ids == ["n1", "n2", "n3"])
        #expect(seen.change == CollectionChange(insertions: [2]))
    }

    @Test func aCollectionOpenedAfterAnotherStoresCommitShowsItOnceAsInsertions() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores([], watcher: .polling(every: .seconds(60)), in: directory)
        try await writer.write { try $0.upsert(contentsOf: Note.numbered(5)) }
        // The first read takes in the writer's commit (announcing it) and shows its rows.
        let deliveries = CheckedDeliveries(collection(of: watcher))
        let first = try await deliveries.log.next()
        #expect(first.ids == ["n1", "n2", "n3", "n4", "n5"])
        #expect(first.change == CollectionChange(insertions: [0, 1, 2, 3, 4]))
        // The next delivery is the next real change, not the same commit again as modifications.
        try await watcher.write { try $0.upsert(Note(id: "n6", rank: 6)) }
        let next = try await deliveries.log.next()
        #expect(next.ids == ["n1", "n2", "n3", "n4", "n5", "n6"])
        #expect(next.change == CollectionChange(insertions: [5]))
        #expect(deliveries.inconsistencies.isEmpty)
    }

    @Test func aRowRewrittenWithIdenticalContentIsNoModification() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(3), in: directory)
        let deliveries = CheckedDeliveries(collection(of: watcher))
        _ = try await deliveries.log.next()
        // Rewritten, not changed: every row of the table counts as touched, none as modified.
        try await writer.write { try $0.execute("UPDATE notes SET body = body", touching: "notes") }
        await watcher.checkForExternalChanges()
        try await writer.write { try $0.upsert(Note(id: "n2", rank: 2, body: "edited")) }
        await watcher.checkForExternalChanges()
        let seen = try await deliveries.log.next()
        #expect(seen.bodies == ["note 1", "edited", "note 3"])
        #expect(seen.change == CollectionChange(modifications: [1]))
    }

    @Test func aRolledBackWriteReachesNoOneAndTheNextCommitArrivesAlone() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(3), in: directory)
        let published = PublishedChanges(watcher)
        let deliveries = CheckedDeliveries(collection(of: watcher))
        _ = try await deliveries.log.next()

        await #expect(throws: Abort.self) {
            try await writer.write { transaction in
                try transaction.upsert(Note(id: "n9", rank: 9, body: "never"))
                try transaction.delete(Note.self, id: "n1")
                throw Abort()
            }
        }
        await watcher.checkForExternalChanges()
        await settle(watcher)
        #expect(published.log.all.isEmpty)
        #expect(deliveries.log.unread == 0)

        try await writer.write { try $0.upsert(Note(id: "n4", rank: 4)) }
        await watcher.checkForExternalChanges()
        let change = try await published.log.next()
        #expect(change.ids == ["n4"])
        #expect(!change.isWholeTable)
        let seen = try await deliveries.log.next()
        #expect(seen.ids == ["n1", "n2", "n3", "n4"])
        #expect(seen.change == CollectionChange(insertions: [3]))
        await settle(watcher)
        #expect(published.log.unread == 0)
    }

    @Test func aBatchWithAFailingWriteSendsOnlyTheCommittedWrites() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores([], in: directory)
        let published = PublishedChanges(watcher)
        // Held, so that the three writes are one batch, run again write by write after the
        // failure.
        let gate = holdQueue(of: writer)
        let done = Counter()
        writer.enqueueWrite({ try $0.upsert(Note(id: "a", rank: 1)) }, completion: { _ in done.increment() })
        writer.enqueueWrite({ transaction in
            try transaction.upsert(Note(id: "b", rank: 2))
            throw Abort()
        }, completion: { _ in done.increment() })
        writer.enqueueWrite({ try $0.upsert(Note(id: "c", rank: 3)) }, completion: { _ in done.increment() })
        gate.signal()
        await settle(writer)
        #expect(done.value == 3)
        await watcher.checkForExternalChanges()
        #expect(try await published.log.next().ids == ["a", "c"])
        await settle(watcher)
        #expect(published.log.unread == 0)
    }

    @Test func aTransactionThatChangesManyRowsOfATableReachesOthersAsAChangeOfTheWholeTable() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(2), in: directory)
        let published = PublishedChanges(watcher)
        let deliveries = CheckedDeliveries(collection(of: watcher))
        _ = try await deliveries.log.next()
        let count = StoreChangeLog.rowLimit + 1
        try await writer.write { transaction in
            try transaction.delete(Note.self, id: "n1")
            for rank in 3..<(3 + count) { try transaction.upsert(Note(id: "n\(rank)", rank: rank)) }
        }
        try await writer.write { try $0.upsert(Note(id: "n2", rank: 2, body: "after")) }
        await watcher.checkForExternalChanges()
        let change = try await published.log.next()
        #expect(change.isWholeTable)
        let seen = try await deliveries.log.next()
        #expect(seen.ids == (2..<(3 + count)).map { "n\($0)" })
        #expect(seen.bodies.first == "after")
        #expect(seen.change?.deletions == [0])
        #expect(seen.change?.insertions == Array(1...count))
        #expect(deliveries.inconsistencies.isEmpty)
        // Below the limit, rows are named one by one.
        try await writer.write { try $0.upsert(Note(id: "n2", rank: 2, body: "again")) }
        await watcher.checkForExternalChanges()
        let small = try await published.log.next()
        #expect(!small.isWholeTable)
        #expect(small.ids == ["n2"])
    }

    @Test func aStoreDoesNotHearItsOwnWritesTwice() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores([], in: directory)
        let published = PublishedChanges(writer)
        try await writer.write { try $0.upsert(Note(id: "a", rank: 1)) }
        try await watcher.write { try $0.upsert(Note(id: "b", rank: 2)) }
        try await writer.write { try $0.upsert(Note(id: "c", rank: 3)) }
        await writer.checkForExternalChanges()
        await settle(writer)
        // Its own two writes once each; the other store's write, which committed before its
        // second write, comes with that write.
        #expect(published.log.all.map { $0.ids.sorted() } == [["a"], ["b", "c"]])
    }

    @Test func aBurstOfAThousandWritesArrivesCompleteInOrderAndOnce() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores([], watcher: .default, in: directory)
        let published = PublishedChanges(watcher)
        let deliveries = CheckedDeliveries(collection(of: watcher))
        let total = 1_000
        let committed = Counter()
        for rank in 1...total {
            writer.enqueueWrite({ try $0.upsert(Note(id: "b\(rank)", rank: rank)) },
                                completion: { error in if error == nil { committed.increment() } })
        }
        let expected = (1...total).map { "b\($0)" }
        var last: CheckedDeliveries.Seen
        repeat {
            last = try await deliveries.log.next()
            // Every delivery is a state the writer committed: the first n writes, in order.
            #expect(last.ids == Array(expected.prefix(last.ids.count)))
        } while last.ids.count < total
        #expect(last.ids == expected)
        #expect(committed.value == total)
        #expect(deliveries.inconsistencies.isEmpty)
        // Each write's row was published once, and only once.
        await settle(watcher)
        let ids = published.log.all.flatMap(\.ids)
        #expect(ids.count == total)
        #expect(Set(ids).count == total)
    }

    /// Two stores write at random (inserts, deletions, edits, moves), each taking in the other's
    /// commits before its own; a third, polling, ends with what the file holds, every delivery's
    /// change set leading from the rows before to the rows after.
    @Test(arguments: [UInt64(3), 4, 11, 12])
    func randomWritesFromTwoStoresReachEveryCollectionConsistently(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let writers = try [LiveStore(location: .file(url), migrations: Note.migrations),
                           LiveStore(location: .file(url), migrations: Note.migrations)]
        let watcher = try LiveStore(location: .file(url), migrations: Note.migrations)
        let observed = [CheckedDeliveries(collection(of: writers[0])), CheckedDeliveries(collection(of: writers[1])),
                        CheckedDeliveries(collection(of: watcher))]
        var ids: [String] = []
        for step in 0..<150 {
            let store = writers[random.below(2)]
            let existing = ids.isEmpty ? nil : ids[random.below(ids.count)]
            switch (random.below(4), existing) {
            case (1, let id?):
                try await store.write { try $0.delete(Note.self, id: id) }
                ids.removeAll { $0 == id }
            case (2, let id?):
                let rank = random.below(100)
                try await store.write { try $0.upsert(Note(id: id, rank: rank, body: "step \(step)")) }
            default:
                let note = Note(id: "r\(step)", rank: random.below(100), body: "new \(step)")
                try await store.write { try $0.upsert(note) }
                ids.append(note.id)
            }
        }
        let expected = try await watcher.read { connection in
            try connection.query("SELECT id, body FROM notes ORDER BY rank, id") { [$0.string(0), $0.string(1)] }
        }
        for store in writers + [watcher] { await store.checkForExternalChanges() }
        for deliveries in observed {
            var last = try await deliveries.log.next()
            while zip(last.ids, last.bodies).map({ [$0, $1] }) != expected { last = try await deliveries.log.next() }
            #expect(deliveries.inconsistencies.isEmpty)
        }
    }

    @Test func anotherProcesssWritesReachThisProcesssCollection() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try LiveStore(location: .file(url), migrations: Note.migrations)
        try await store.write { try $0.upsert(Note(id: "p0", rank: 0, body: "mine")) }
        let published = PublishedChanges(store)
        let deliveries = CheckedDeliveries(collection(of: store))
        #expect(try await deliveries.log.next().ids == ["p0"])

        let (status, lines) = try await runHelper(["store-write", url.path, "40"])
        #expect(status == 0)
        #expect(lines == helperNoteIDs(1...40).map { "wrote \($0)" })
        let expected = ["p0"] + helperNoteIDs(1...40)
        var last = try await deliveries.log.next()
        while last.ids.count < expected.count {
            #expect(last.ids == Array(expected.prefix(last.ids.count)))
            last = try await deliveries.log.next()
        }
        #expect(last.ids == expected)
        #expect(last.bodies.last == "from the helper")
        #expect(deliveries.inconsistencies.isEmpty)
        // Told row by row, each row once.
        await settle(store)
        #expect(published.log.all.allSatisfy { !$0.isWholeTable })
        #expect(published.log.all.flatMap(\.ids).sorted() == helperNoteIDs(1...40).sorted())
    }

    @Test func anotherProcesssBurstWithFailingWritesArrivesCompleteInOrderAndOnce() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try LiveStore(location: .file(url), migrations: Note.migrations)
        let published = PublishedChanges(store)
        let deliveries = CheckedDeliveries(collection(of: store))

        let total = 1_000
        let (status, lines) = try await runHelper(["store-write", url.path, "\(total)", "--burst", "--fail-every", "7"])
        #expect(status == 0)
        let committed = (1...total).filter { $0 % 7 != 0 }.map { "p\($0)" }
        #expect(lines == (1...total).map { $0 % 7 == 0 ? "failed p\($0)" : "wrote p\($0)" })
        var last = try await deliveries.log.next()
        while last.ids.count < committed.count {
            #expect(last.ids == Array(committed.prefix(last.ids.count)))
            last = try await deliveries.log.next()
        }
        #expect(last.ids == committed)
        #expect(deliveries.inconsistencies.isEmpty)
        await store.checkForExternalChanges()
        await settle(store)
        let ids = published.log.all.flatMap(\.ids)
        #expect(ids.count == committed.count)
        #expect(Set(ids) == Set(committed))
    }

    @Test func aRawWriterMakesEveryCollectionAndObjectOfTheFileReadAgain() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(4), in: directory)
        let published = PublishedChanges(watcher)
        let deliveries = CheckedDeliveries(collection(of: watcher))
        _ = try await deliveries.log.next()
        let object = LiveObject<Note>(store: watcher, id: "n3", fetch: nil)
        let bodies = Deliveries<String?>()
        let token = object.observe { object, _ in bodies.record(object.snapshot?.body) }
        #expect(try await bodies.next() == "note 3")

        let raw = try SQLiteConnection(location: .file(directory.file("shared.sqlite")))
        try raw.transaction {
            try raw.execute("DELETE FROM notes WHERE id = 'n1'")
            try raw.execute("UPDATE notes SET body = 'raw' WHERE id = 'n3'")
            try raw.execute("INSERT INTO notes VALUES ('n5', 'inbox', 5, 'new', 'synced')")
        }
        raw.close()
        await watcher.checkForExternalChanges()
        #expect(try await published.log.next().isWholeTable)
        let seen = try await deliveries.log.next()
        #expect(seen.ids == ["n2", "n3", "n4", "n5"])
        #expect(seen.bodies[1] == "raw")
        #expect(seen.change?.deletions == [0])
        #expect(seen.change?.insertions == [3])
        #expect(try await bodies.next() == "raw")
        #expect(deliveries.inconsistencies.isEmpty)
        _ = (token, writer)
    }

    @Test func aLogRowThatIsNotAChangeMakesEveryTableReadAgain() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(2), in: directory)
        let published = PublishedChanges(watcher)
        let deliveries = CheckedDeliveries(collection(of: watcher))
        _ = try await deliveries.log.next()
        try await writer.write { transaction in
            try transaction.upsert(Note(id: "n3", rank: 3))
            try transaction.connection.execute("INSERT INTO live_store_changes (change) VALUES (x'ff00')")
        }
        await watcher.checkForExternalChanges()
        #expect(try await published.log.next().isWholeTable)
        #expect(try await deliveries.log.next().ids == ["n1", "n2", "n3"])
    }

    @Test func withDetectionOffNothingArrivesUntilTheStoreIsAsked() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(1), watcher: .off, in: directory)
        #expect(!watcher.isWatching)
        let deliveries = CheckedDeliveries(collection(of: watcher))
        _ = try await deliveries.log.next()
        for rank in 2...3 { try await writer.write { try $0.upsert(Note(id: "n\(rank)", rank: rank)) } }
        // A round trip of the other store's timer interval, had it one, many times over: the
        // writes are committed, and the watcher's queue and main actor are idle.
        await settle(watcher, rounds: 20)
        #expect(deliveries.log.unread == 0)
        await watcher.checkForExternalChanges()
        let seen = try await deliveries.log.next()
        #expect(seen.ids == ["n1", "n2", "n3"])
        #expect(seen.change == CollectionChange(insertions: [1, 2]))
    }

    @Test func aStoreBehindTheTrimmedLogReadsEverythingAgainAndEndsRight() async throws {
        let directory = try TemporaryDirectory()
        let (writer, watcher) = try await makeStores(Note.numbered(3), in: directory)
        let published = PublishedChanges(watcher)
        let deliveries = CheckedDeliveries(collection(of: watcher))
        _ = try await deliveries.log.next()
        // More commits than the log keeps: the first ones the watcher has not read are gone.
        // They delete n2; the ones left only edit n3, so n2 goes only if all is read again.
        let commits = Int(StoreChangeLog.kept + StoreChangeLog.trimEvery)
        try await writer.write { try $0.delete(Note.self, id: "n2") }
        for edit in 1...commits {
            try await writer.write { try $0.upsert(Note(id: "n3", rank: 3, body: "edit \(edit)")) }
        }
        let oldest = try await writer.read { try $0.queryFirst("SELECT min(sequence) FROM live_store_changes") { $0.int64(0) } }
        #expect(oldest ?? 0 > 2)
        await watcher.checkForExternalChanges()
        #expect(try await published.log.next().isWholeTable)
        let seen = try await deliveries.log.next()
        #expect(seen.ids == ["n1", "n3"])
        #expect(seen.bodies == ["note 1", "edit \(commits)"])
        // Read again whole: of the rows that stayed, the one whose content changed is modified.
        #expect(seen.change == CollectionChange(deletions: [1], modifications: [2]))
        #expect(deliveries.inconsistencies.isEmpty)
    }

    @Test func aFileRebuiltWhileRunningKeepsALogThatOtherStoresRead() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        try await CacheDamage.fillThenOverwriteTheMiddle(of: store, at: url)
        await #expect(throws: SQLiteError.self) {
            try await store.read { try $0.query("SELECT body FROM notes") { $0.string(0) } }
        }
        #expect(store.latestRecovery != nil)

        // Both ways, row by row: the rebuilt store starts reading the new file's log afresh.
        let other = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        let publishedToOther = PublishedChanges(other)
        let publishedToStore = PublishedChanges(store)
        try await other.write { try $0.upsert(Note(id: "from other", rank: 1)) }
        publishedToOther.log.skipUnread()  // its own write
        await store.checkForExternalChanges()
        let change = try await publishedToStore.log.next()
        #expect(change.ids == ["from other"])
        #expect(!change.isWholeTable)
        try await store.write { try $0.upsert(Note(id: "from store", rank: 2)) }
        await other.checkForExternalChanges()
        let back = try await publishedToOther.log.next()
        #expect(back.ids == ["from store"])
        #expect(!back.isWholeTable)
    }

    @Test func aStoreInMemoryIgnoresDetection() async throws {
        let store = try LiveStore(location: .inMemory, migrations: Note.migrations, externalChanges: .default)
        #expect(store.changeLog == nil)
        await store.checkForExternalChanges()
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        #expect(try await store.read { try $0.queryFirst("SELECT count(*) FROM sqlite_schema WHERE name = 'live_store_changes'") { $0.int(0) } } == 0)
    }

    @Test func detectionSettings() {
        #expect(ExternalChangeDetection.default.wakesUp)
        #expect(ExternalChangeDetection.default.interval == .seconds(1))
        #expect(ExternalChangeDetection.default.pollingWithoutChannel == .milliseconds(10))
        #expect(!ExternalChangeDetection.polling(every: .seconds(1)).wakesUp)
        #expect(ExternalChangeDetection.wakeUps(checkingEvery: nil).interval == nil)
        #expect(ExternalChangeDetection.off.interval == nil)
        #expect(ExternalChangeDetection.polling(every: .milliseconds(250)).interval == .milliseconds(250))
        #expect(ExternalChangeDetection.polling(every: .zero).interval == .milliseconds(1))
    }
}
