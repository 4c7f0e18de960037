import TestSupport
import Dispatch
import Foundation
@testable import LiveRepository
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3))) struct LiveStoreTests {
    struct Abort: Error, Equatable {}

    @Test(arguments: TestDatabase.allCases)
    func writeReturnsTheBodysResultAndReadsSeeIt(kind: TestDatabase) async throws {
        let (store, directory) = try kind.makeStore()
        let result = try await store.write { transaction -> String in
            try transaction.upsert(Note(id: "a", rank: 1, body: "hello"))
            return "done"
        }
        #expect(result == "done")
        let count = try await store.write { try $0.upsert(contentsOf: Note.numbered(3)) }
        #expect(count == 3)
        #expect(try await noteIDs(in: store) == ["a", "n1", "n2", "n3"])
        let body = try await store.read { try $0.queryFirst("SELECT body FROM notes WHERE id = 'a'") { $0.string(0) } }
        #expect(body == "hello")
        #expect(store.recovery == nil)
        _ = directory
    }

    @Test(arguments: TestDatabase.allCases)
    func aThrowingWriteRollsBackOnlyItself(kind: TestDatabase) async throws {
        let (store, directory) = try kind.makeStore()
        let objects = ["a", "b", "c"].map { LiveObject<Note>(store: store, id: $0, fetch: nil) }
        let logs = objects.map { object in
            let log = Deliveries<String?>()
            return (log, object.observe { object, _ in log.record(object.snapshot?.body) })
        }
        // Hold the queue so that the three writes are committed in one batch.
        let gate = holdQueue(of: store)
        let outcomes = Deliveries<(String, String?)>()
        store.enqueueWrite({ try $0.upsert(Note(id: "a", rank: 1, body: "kept")) },
                           completion: { error in outcomes.record(("a", error.map { "\($0)" })) })
        store.enqueueWrite({ transaction in
            try transaction.upsert(Note(id: "b", rank: 2, body: "rolled back"))
            throw Abort()
        }, completion: { error in outcomes.record(("b", error.map { "\($0)" })) })
        store.enqueueWrite({ try $0.upsert(Note(id: "c", rank: 3, body: "kept too")) },
                           completion: { error in outcomes.record(("c", error.map { "\($0)" })) })
        gate.signal()
        let results = [try await outcomes.next(), try await outcomes.next(), try await outcomes.next()]
        #expect(results.map(\.0) == ["a", "b", "c"])
        #expect(results[0].1 == nil)
        #expect(results[1].1 != nil)
        #expect(results[2].1 == nil)
        #expect(try await noteIDs(in: store) == ["a", "c"])
        // Observers were told about the committed writes only.
        #expect(try await logs[0].0.next() == "kept")
        #expect(try await logs[2].0.next() == "kept too")
        await settle(store)
        #expect(logs[1].0.all.isEmpty)
        _ = (logs, directory)
    }

    @Test(arguments: TestDatabase.allCases)
    func aBurstLargerThanOneTransactionCommitsEveryWriteButTheFailingOne(kind: TestDatabase) async throws {
        let (store, directory) = try kind.makeStore()
        let collection = LiveCollection(
            store: store, query: CacheQuery<Note>(orderBy: "rank"), pageSize: 10, anchor: .end, fetchPage: nil)
        let counts = Deliveries<Int>()
        let token = collection.observe { collection, _, _ in counts.record(collection.count) }
        // Hold the queue so that more writes wait than one transaction takes.
        let gate = holdQueue(of: store)
        let total = LiveStore.maximumBatch + 1_500
        let failing = LiveStore.maximumBatch / 2
        let failures = Counter()
        for rank in 1...total {
            store.enqueueWrite({ transaction in
                try transaction.upsert(Note(id: "n\(rank)", rank: rank))
                if rank == failing { throw Abort() }
            }, completion: { error in if error != nil { failures.increment() } })
        }
        gate.signal()
        _ = try await counts.next(where: { $0 >= total - 1 })
        #expect(collection.count == total - 1)
        #expect(failures.value == 1)
        #expect(try await store.read { connection in
            try connection.queryFirst("SELECT count(*) FROM notes WHERE id = ?", [.text("n\(failing)")]) { $0.int(0) }
        } == 0)
        #expect(collection.object(at: total - 2)?.id == "n\(total)")
        _ = (token, directory)
    }

    @Test func aThrowingWriteRethrowsItsError() async throws {
        let (store, _) = try TestDatabase.inMemory.makeStore()
        await #expect(throws: Abort.self) {
            try await store.write { transaction in
                try transaction.upsert(Note(id: "a", rank: 1))
                throw Abort()
            }
        }
        #expect(try await noteIDs(in: store).isEmpty)
    }

    @Test func observersAreToldAfterTheCommit() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        let store = try LiveStore(location: .file(url), migrations: Note.migrations)
        let object = LiveObject<Note>(store: store, id: "a", fetch: nil)
        // In the callback, another connection must already see the row: it was committed.
        let seen = Deliveries<String?>()
        let token = object.observe { object, _ in
            let other = try? SQLiteConnection(location: .file(url), readOnly: true)
            let body = try? other?.queryFirst("SELECT body FROM notes WHERE id = 'a'") { $0.string(0) }
            seen.record(body ?? nil)
            _ = object
        }
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "committed")) }
        #expect(try await seen.next() == "committed")
        await #expect(throws: Abort.self) {
            try await store.write { transaction in
                try transaction.upsert(Note(id: "a", rank: 1, body: "never"))
                throw Abort()
            }
        }
        await settle(store)
        #expect(seen.unread == 0)
        #expect(object.snapshot?.body == "committed")
        _ = token
    }

    @Test(arguments: TestDatabase.allCases)
    func closingMakesLaterReadsAndWritesFail(kind: TestDatabase) async throws {
        let (store, directory) = try kind.makeStore()
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        await store.close()
        await #expect(throws: SQLiteError.closed) { try await store.read { try $0.query("SELECT id FROM notes") { $0.string(0) } } }
        await #expect(throws: SQLiteError.closed) { try await store.write { try $0.upsert(Note(id: "b", rank: 2)) } }

        let object = LiveObject<Note>(store: store, id: "a", fetch: nil)
        let log = Deliveries<String?>()
        let token = object.observe { _, error in log.record(error.map { "\($0)" }) }
        #expect(try await log.next() == "\(SQLiteError.closed)")
        #expect(object.error as? SQLiteError == .closed)
        #expect(object.dataStatus == .error)
        _ = (token, directory)
    }

    @Test func aLiveObjectKeepsItsSnapshotAndReportsTheErrorAfterClose() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1, body: "cached")])
        let server = RecordServer<Note>()
        let object = LiveObject<Note>(store: store, id: "a", fetch: { try await server.fetch() })
        let log = Deliveries<(DataStatus, String?, String?)>()
        let token = object.observe { object, error in log.record((object.dataStatus, object.snapshot?.body, error.map { "\($0)" })) }
        #expect(try await log.next().0 == .local)
        await store.close()
        await server.answer(.failure(TestServerError()))
        let failed = try await log.next()
        #expect(failed.1 == "cached")
        #expect(failed.2 != nil)
        object.refresh()
        await server.answer(.success(Note(id: "a", rank: 1, body: "server")))
        let stored = try await log.next()
        // The server's answer is shown, and the cache's failure to keep it is reported.
        #expect(stored.1 == "server")
        #expect(object.error as? SQLiteError == .closed)
        _ = token
    }

    @Test func aCorruptFileIsMovedAsideAndReplaced() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: url)
        let store = try LiveStore(location: .file(url), migrations: Note.migrations)
        let recovery = try #require(store.recovery)
        #expect((recovery.error as? SQLiteError)?.isCorruption == true)
        #expect(recovery.movedTo.lastPathComponent.hasPrefix("cache.sqlite.damaged-"))
        #expect(FileManager.default.fileExists(atPath: recovery.movedTo.path))
        #expect(try Data(contentsOf: recovery.movedTo) == garbage)
        #expect(directory.contents.contains { $0.hasPrefix("cache.sqlite.damaged-") })
        let stamp = recovery.movedTo.lastPathComponent.dropFirst("cache.sqlite.damaged-".count)
        #expect(Int(stamp) != nil)
        #expect(store.latestRecovery != nil)
        // The new cache works.
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        #expect(try await noteIDs(in: store) == ["a"])
    }

    @Test func openingOffTheMainActorMigratesRecoversAndReportsErrors() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        try Data(repeating: 0x5A, count: 8192).write(to: url)
        let store = try await LiveStore.open(location: .file(url), migrations: Note.migrations)
        let recovery = try #require(store.recovery)
        #expect((recovery.error as? SQLiteError)?.isCorruption == true)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        #expect(try await noteIDs(in: store) == ["a"])
        // A second store opened the same way finds the file healthy and migrated.
        let again = try await LiveStore.open(location: .file(url), migrations: Note.migrations)
        #expect(again.recovery == nil)
        #expect(try await noteIDs(in: again) == ["a"])
        // A cache that cannot be made throws the initializer's error, naming the path (here the
        // folder cannot be created: a file has its name).
        let blocked = directory.file("not-a-folder")
        try Data("a file".utf8).write(to: blocked)
        let inside = blocked.appendingPathComponent("cache.sqlite")
        let error = await #expect(throws: (any Error).self) {
            try await LiveStore.open(location: .file(inside), migrations: Note.migrations)
        }
        #expect(error.map { "\($0)" }?.contains(blocked.path) == true)
    }

    @Test func damageFoundWhileRunningRebuildsTheCacheAndReloadsLiveData() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        let store = try LiveStore(location: .file(url), migrations: Note.migrations)
        try await CacheDamage.fillThenOverwriteTheMiddle(of: store, at: url)
        let server = PageServer<Note>()
        let collection = LiveCollection(
            store: store, query: CacheQuery<Note>(orderBy: "rank"), pageSize: 400,
            fetchPage: { try await server.fetch(cursor: $0, limit: $1) })
        let log = Deliveries<(DataStatus, Int, Bool)>()
        let token = collection.observe { collection, _, error in
            log.record((collection.dataStatus, collection.count, error != nil))
        }
        // The cache read fails with the corruption, and the store rebuilds the file.
        let failed = try await log.next()
        #expect(failed.2)
        let recovery = try #require(store.latestRecovery)
        #expect((recovery.error as? SQLiteError)?.isCorruption == true)
        #expect(FileManager.default.fileExists(atPath: recovery.movedTo.path))
        // The collection asks the server again (the first request, then the reload), and shows
        // its answer from the new cache.
        await server.answer(.success(RemotePage(records: [], nextCursor: nil)))
        await server.answer(.success(RemotePage(records: [Note(id: "fresh", rank: 1)], nextCursor: nil)))
        _ = try await log.next(where: { $0.0 == .fresh && $0.1 == 1 })
        #expect(try await noteIDs(in: store) == ["fresh"])
        _ = token
    }

    @Test func aFileInAFormatThisSQLiteCannotReadIsRebuilt() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        try await CacheDamage.checkpointedCache(at: url, notes: [Note(id: "old", rank: 1)])
        // The header's schema format number (bytes 44-47, 1 to 4 today) from a future SQLite, or
        // damaged: SQLite says "unsupported file format" (SQLITE_ERROR, not a corruption code).
        try CacheDamage.overwrite(url, at: 44, with: [0, 0, 0, 9])
        let store = try LiveStore(location: .file(url), migrations: Note.migrations)
        let recovery = try #require(store.recovery)
        #expect("\(recovery.error)".contains("unsupported file format"))
        #expect("\(recovery.error)".contains(url.path))
        #expect(FileManager.default.fileExists(atPath: recovery.movedTo.path))
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        #expect(try await noteIDs(in: store) == ["a"])
    }

    @Test func aDamagedFileThatCannotBeMovedAsideFailsTheOpenNamingTheFileAndBothCauses() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: url)
        let locks = ReadOnlyPaths()
        defer { locks.unlock() }
        try locks.lock(directory.url)
        let failure = #expect(throws: CacheRecoveryFailure.self) {
            try LiveStore(location: .file(url), migrations: Note.migrations)
        }
        #expect(failure?.file == url)
        #expect((failure?.damage as? SQLiteError)?.isCorruption == true)
        #expect(failure?.description.contains(url.path) == true)
        #expect(failure?.description.contains("not a database") == true)
        // Once the folder is writable, opening moves the file aside as usual.
        locks.unlock()
        let store = try LiveStore(location: .file(url), migrations: Note.migrations)
        #expect(store.recovery != nil)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        #expect(try await noteIDs(in: store) == ["a"])
    }

    @Test func damageFoundWhileRunningInAReadOnlyFolderIsReportedUntilItCanBeMovedAside() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        try await CacheDamage.fillThenOverwriteTheMiddle(of: store, at: url)
        let locks = ReadOnlyPaths()
        defer { locks.unlock() }
        try locks.lock(directory.url)
        // The store cannot move the file: each call says the file is damaged, and which file.
        for _ in 1...2 {
            let error = await #expect(throws: SQLiteError.self) { try await noteIDs(in: store) }
            #expect(error?.isCorruption == true)
            #expect(error?.path == url.path)
        }
        #expect(store.latestRecovery == nil)
        // Once the folder is writable, the next call that meets the damage recovers.
        locks.unlock()
        await #expect(throws: SQLiteError.self) { try await noteIDs(in: store) }
        #expect(store.latestRecovery != nil)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        #expect(try await noteIDs(in: store) == ["a"])
    }

    @Test func damageToTheChangeLogsPagesFoundWhenOpeningIsRecoveredToo() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        try await CacheDamage.checkpointedCache(at: url, notes: Note.numbered(50))
        // Garbage over the page of `sqlite_sequence`, which the store reads for its change log
        // after the migrations.
        let root = PlainSQLite.readCopy(of: url, "SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_sequence'")
        let page = try #require(root.rows?.first?.first.flatMap { Int($0) })
        var random = SeededRandom(seed: 48)
        try CacheDamage.overwrite(url, at: (page - 1) * 4096, count: 4096, with: &random)
        let store = try LiveStore(location: .file(url), migrations: Note.migrations)
        let recovery = try #require(store.recovery)
        #expect((recovery.error as? SQLiteError)?.isCorruption == true)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        #expect(try await noteIDs(in: store) == ["a"])
    }

    @Test func aFileWhoseSchemaContradictsItsVersionIsRebuilt() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        try await CacheDamage.checkpointedCache(at: url, notes: [Note(id: "old", rank: 1)])
        // The header's user version (bytes 60-63) damaged to 0: migration 1 runs again over the
        // tables it made, and SQLite answers "table notes already exists".
        try CacheDamage.overwrite(url, at: 60, with: [0, 0, 0, 0])
        let store = try LiveStore(location: .file(url), migrations: Note.migrations)
        let recovery = try #require(store.recovery)
        #expect("\(recovery.error)".contains("already exists"))
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        #expect(try await noteIDs(in: store) == ["a"])
    }

    @Test func aMigrationThatCannotRunEvenOnANewFileIsThrown() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        let broken = [SQLiteMigration(version: 1, name: "typo", sql: "CREATE TABLEE notes (id TEXT)")]
        #expect(throws: SQLiteMigrator.Failure.self) { try LiveStore(location: .file(url), migrations: broken) }
    }

    @Test func damageFoundWhileRunningOnAFullDiskIsReportedUntilANewFileCanBeMade() async throws {
        let disk: SmallDisk
        do { disk = try SmallDisk.mount(megabytes: 4) } catch {
            print("damageFoundWhileRunningOnAFullDiskIsReportedUntilANewFileCanBeMade: skipped: \(error)")
            return
        }
        defer { disk.unmount() }
        let url = disk.url.appendingPathComponent("cache.sqlite")
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        try await CacheDamage.fillThenOverwriteTheMiddle(of: store, at: url)
        try disk.fill()
        // The file can be moved aside, but no new one made: the damaged file stays in place, and
        // each call says it is damaged, and which file.
        for _ in 1...2 {
            let error = await #expect(throws: SQLiteError.self) { try await noteIDs(in: store) }
            #expect(error?.isCorruption == true)
            #expect(error?.path == url.path)
        }
        #expect(store.latestRecovery == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.url.path).filter { $0.contains("damaged") }.isEmpty)
        // Once there is room, the next call that meets the damage recovers.
        disk.free()
        await #expect(throws: SQLiteError.self) { try await noteIDs(in: store) }
        #expect(store.latestRecovery != nil)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        #expect(try await noteIDs(in: store) == ["a"])
        await store.close()
    }

    @Test func closingLeavesEveryCommitInTheFileItself() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        try await store.write { try $0.upsert(contentsOf: Note.numbered(20)) }
        await store.close()
        // The last connection to close checkpoints and deletes the WAL: the file alone (copied
        // as a backup, or left after someone deleted "the temporary -wal file") has every commit.
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        let alone = directory.file("alone.sqlite")
        try FileManager.default.copyItem(at: url, to: alone)
        #expect(PlainSQLite.read(alone, "SELECT count(*) FROM notes") == .rows([["20"]]))
    }

    @Test func aDatabaseFromANewerSchemaIsRebuilt() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        do {
            let connection = try SQLiteConnection(location: .file(url))
            try connection.executeScript("CREATE TABLE future (x); INSERT INTO future VALUES (1);")
            try connection.setUserVersion(99)
            connection.close()
        }
        let store = try LiveStore(location: .file(url), migrations: Note.migrations)
        let recovery = try #require(store.recovery)
        guard case SQLiteMigrator.Failure.databaseIsNewer(let found, let known) = recovery.error else {
            Issue.record("unexpected error \(recovery.error)")
            return
        }
        #expect(found == 99)
        #expect(known == 1)
        #expect(directory.contents.contains { $0.hasPrefix("cache.sqlite.damaged-") })
        let version = try await store.read { try $0.userVersion() }
        #expect(version == 1)
        try await store.write { try $0.upsert(Note(id: "a", rank: 1)) }
        #expect(try await noteIDs(in: store) == ["a"])
    }

    @Test func migrationsRunOnceAndDataPersists() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        let runs = Counter()
        let migrations = [
            SQLiteMigration(version: 1, name: "create notes") { connection in
                runs.increment()
                try connection.executeScript(Note.table.createStatements)
            },
        ]
        do {
            let store = try LiveStore(location: .file(url), migrations: migrations)
            try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "persisted")) }
            await store.close()
        }
        #expect(runs.value == 1)
        let reopened = try LiveStore(location: .file(url), migrations: migrations)
        #expect(runs.value == 1)
        #expect(reopened.recovery == nil)
        let note = try await reopened.write { try $0.record(Note.self, id: "a") }
        #expect(note?.body == "persisted")
    }

    @Test func anInMemoryStoreStartsEmptyEachTime() async throws {
        let first = try await makeNoteStore([Note(id: "a", rank: 1)])
        let second = try LiveStore(location: .inMemory, migrations: Note.migrations)
        #expect(try await noteIDs(in: first) == ["a"])
        #expect(try await noteIDs(in: second).isEmpty)
    }

    @Test func anUnwritableLocationThrows() async throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.file("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        #expect(throws: (any Error).self) {
            try LiveStore(location: .file(blocker.appendingPathComponent("cache.sqlite")), migrations: Note.migrations)
        }
    }

    @Test func releasedLiveObjectsAreNotKeptByTheStore() async throws {
        let store = try await makeNoteStore([Note(id: "a", rank: 1)])
        var object: LiveObject<Note>? = LiveObject<Note>(store: store, id: "a", fetch: nil)
        var collection: LiveCollection<Note>? = LiveCollection(store: store, query: CacheQuery<Note>(orderBy: "rank"), fetchPage: nil)
        #expect(store.hub.liveListenerCount == 2)
        await settle(store)
        weak let weakObject = object
        weak let weakCollection = collection
        object = nil
        collection = nil
        #expect(weakObject == nil)
        #expect(weakCollection == nil)
        #expect(store.hub.liveListenerCount == 0)
        try await store.write { try $0.upsert(Note(id: "a", rank: 2)) }
        await settle(store)
    }
}
