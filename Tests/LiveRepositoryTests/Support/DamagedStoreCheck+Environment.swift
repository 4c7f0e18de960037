import CSQLite
import Foundation
import TestSupport
@testable import LiveRepository

/// The cases where the file is healthy and its surroundings are not: read-only, a full disk.
/// A healthy file must never be moved aside; a write that cannot be made throws an error naming
/// the file and the cause; the store works again once the surroundings are fixed.
extension DamagedStoreCheck {
    /// A batch too big for a full disk or a capped file: 150 notes of 3,000 bytes.
    nonisolated static let bigBatch = (1...150).map { Note(id: "big\($0)", rank: $0, body: String(repeating: "b", count: 3_000)) }

    // MARK: Read-only

    mutating func playReadOnly(folder lockingFolder: Bool) async throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("cache", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("cache.sqlite")
        try await CacheDamage.checkpointedCache(at: url, notes: damage.notes)
        let before = try Data(contentsOf: url)
        let reference = PlainSQLite.readCopy(of: url, Self.allNotes)
        // Half the time the file was closed cleanly, with no -wal or -shm left: opening it must
        // then create them in the read-only folder. Else a crash left them.
        try await keepOrRemoveCompanions(of: url)
        let locks = ReadOnlyPaths()
        defer { locks.unlock() }
        do {
            try locks.lock(url)
            if lockingFolder { try locks.lock(folder) }
        } catch {
            outcome = .skipped
            step("skipped: \(error)")
            return
        }
        step("built \(damage.notes.count) notes, made read-only")
        do {
            let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
            step("opened, recovery: \(store.recovery.map { "\($0)" } ?? "none")")
            if let recovery = store.recovery {
                fail("a read-only healthy file", expected: "never moved aside", actual: "\(recovery)")
            }
            await checkReads(store, url: url, reference: reference)
            do {
                try await store.write { try $0.upsert(Note(id: "probe", rank: 1)) }
                fail("a write to a read-only file", expected: "an error naming the file", actual: "it committed")
            } catch {
                step("the write threw: \(error)")
                outcome = .thrownOnUse
                expectNamed(error, file: url, during: "a write to a read-only file")
                if LiveStore.isRecoverable(error) || store.latestRecovery != nil {
                    fail("a write to a read-only file", expected: "no recovery", actual: "\(error)")
                }
            }
            await store.close()
        } catch {
            step("opening threw: \(error)")
            outcome = .thrownAtOpen
            expectNamed(error, file: url, during: "opening a read-only file")
        }
        locks.unlock()
        try await expectIntact(url, bytes: before, reference: reference)
    }

    // MARK: A full disk

    mutating func playDiskFull(atOpen: Bool) async throws {
        guard let disk else {
            outcome = .skipped
            step("skipped: no small disk could be mounted")
            return
        }
        let folder = disk.url.appendingPathComponent("case-\(damage.seed)-\(damage.index)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            disk.free()
            try? FileManager.default.removeItem(at: folder)
        }
        let url = folder.appendingPathComponent("cache.sqlite")
        try await CacheDamage.checkpointedCache(at: url, notes: damage.notes)
        let before = try Data(contentsOf: url)
        let reference = PlainSQLite.readCopy(of: url, Self.allNotes)
        if atOpen {
            // Half the time with no -wal or -shm left, which opening must create on the full disk.
            try await keepOrRemoveCompanions(of: url)
            try disk.fill()
        }
        step("built \(damage.notes.count) notes\(atOpen ? ", filled the disk" : "")")
        let store: LiveStore
        do {
            store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        } catch {
            step("opening threw: \(error)")
            outcome = .thrownAtOpen
            expectNamed(error, file: url, during: "opening on a full disk")
            disk.free()
            try await expectIntact(url, bytes: before, reference: reference)
            return
        }
        if let recovery = store.recovery {
            fail("a healthy file on a full disk", expected: "never moved aside", actual: "\(recovery)")
        }
        if !atOpen { try disk.fill() }
        await checkFullThenFreed(store, url: url, reference: reference, free: { disk.free() })
        await store.close()
        try await expectIntact(url, bytes: nil, reference: nil)
    }

    // MARK: SQLITE_FULL from the store's own connection

    mutating func playInjectedFull() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("cache.sqlite")
        try await CacheDamage.checkpointedCache(at: url, notes: damage.notes)
        let reference = PlainSQLite.readCopy(of: url, Self.allNotes)
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        // The file may not grow by a page: SQLite itself answers SQLITE_FULL.
        let pages = try await store.read { connection in
            let pages = try connection.queryFirst("PRAGMA page_count") { $0.int(0) } ?? 0
            _ = try connection.query("PRAGMA max_page_count = \(pages)") { $0.int(0) }
            return pages
        }
        step("built \(damage.notes.count) notes, capped the file at \(pages) pages")
        await checkFullThenFreed(store, url: url, reference: reference) {
            _ = try? await store.read { try $0.query("PRAGMA max_page_count = 1073741823") { $0.int(0) } }
        }
        await store.close()
        try await expectIntact(url, bytes: nil, reference: nil)
    }

    /// On a store whose file cannot grow: a big write throws a clear error that is no damage,
    /// nothing is moved aside, reads still see every note; once `free` made room, it commits.
    private mutating func checkFullThenFreed(
        _ store: LiveStore, url: URL, reference: PlainSQLite.Answer, free: () async -> Void
    ) async {
        do {
            try await store.write { try $0.upsert(contentsOf: Self.bigBatch) }
            fail("a big write with no room", expected: "an error naming the file", actual: "it committed")
        } catch {
            step("the big write threw: \(error)")
            outcome = .thrownOnUse
            expectNamed(error, file: url, during: "a write with no room")
            if (error as? SQLiteError)?.code != SQLITE_FULL {
                fail("a write with no room", expected: "SQLITE_FULL", actual: "\(error)")
            }
        }
        if let recovery = store.latestRecovery {
            fail("a healthy file with no room", expected: "never moved aside", actual: "\(recovery)")
        }
        await checkReads(store, url: url, reference: reference)
        await free()
        do {
            try await store.write { try $0.upsert(contentsOf: Self.bigBatch) }
            let count = try await store.read { try $0.queryFirst("SELECT count(*) FROM notes") { $0.int(0) } ?? 0 }
            step("after making room the write committed: \(count) notes")
            if count != damage.notes.count + Self.bigBatch.count {
                fail("the notes after making room", expected: "\(damage.notes.count + Self.bigBatch.count)", actual: "\(count)")
            }
        } catch {
            fail("a write after making room", expected: "it commits", actual: "\(error)")
        }
    }

    /// Leaves the file with its `-wal` and `-shm` files as a crash does, or without them as a
    /// clean close does, half the time each.
    private mutating func keepOrRemoveCompanions(of url: URL) async throws {
        if damage.random.chance(50) {
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            damage.parameters.append("no -wal or -shm")
        } else {
            try await CacheDamage.leaveAsACrashWould(url)
            damage.parameters.append("-wal and -shm left by a crash")
        }
    }

    /// Reads every note through `store` and compares with `reference`.
    mutating func checkReads(_ store: LiveStore, url: URL, reference: PlainSQLite.Answer) async {
        do {
            let rows = try await store.read { connection in
                try connection.query(Self.allNotes) { row in (0..<4).map { row.string($0) } }
            }
            if reference.rows != rows {
                fail("the store's read", expected: "what plain SQLite reads (\(reference))", actual: "\(rows.count) rows")
            }
        } catch {
            expectNamed(error, file: url, during: "a read")
            fail("a read of a healthy file", expected: "the rows", actual: "\(error)")
        }
    }

    /// Checks that the file is still in place (with `bytes`, when given), nothing was moved
    /// aside, and a new store opens it without recovery and reads `reference` (when given).
    private mutating func expectIntact(_ url: URL, bytes: Data?, reference: PlainSQLite.Answer?) async throws {
        if let bytes, (try? Data(contentsOf: url)) != bytes {
            fail("the healthy file", expected: "its bytes unchanged", actual: "changed")
        }
        let moved = damagedFiles(in: url.deletingLastPathComponent())
        if !moved.isEmpty { fail("the healthy file", expected: "never moved aside", actual: "\(moved)") }
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        if let recovery = store.recovery { fail("reopening the healthy file", expected: "no recovery", actual: "\(recovery)") }
        if let reference { await checkReads(store, url: url, reference: reference) }
        await store.close()
    }
}
