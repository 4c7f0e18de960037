import Foundation
import TestSupport
@testable import LiveRepository

/// Damage the store cannot replace, because its folder is read-only (the file cannot be moved
/// aside) or its disk is full (no new file can be made): it must say so (an error naming the file
/// and the cause, never a dead store whose every call says only "closed", never a damaged file
/// moved aside with no new one in its place), and recover once the folder is writable or the
/// disk has room again.
extension DamagedStoreCheck {
    mutating func playStuckDamage(atOpen: Bool, onFullDisk: Bool) async throws {
        let directory = try TemporaryDirectory()
        if onFullDisk, disk == nil {
            outcome = .skipped
            step("skipped: no small disk could be mounted")
            return
        }
        let folder = onFullDisk
            ? disk!.url.appendingPathComponent("case-\(damage.seed)-\(damage.index)", isDirectory: true)
            : directory.url.appendingPathComponent("cache", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            if onFullDisk {
                disk?.free()
                try? FileManager.default.removeItem(at: folder)
            }
        }
        let url = folder.appendingPathComponent("cache.sqlite")
        try await CacheDamage.checkpointedCache(at: url, notes: damage.notes)
        // With the -wal and -shm a crash leaves: SQLite can then open the file in a read-only
        // folder, and the damage is what it meets.
        if !onFullDisk { try await CacheDamage.leaveAsACrashWould(url) }
        let bytes = try Data(contentsOf: url)
        let pageSize = CacheDamage.pageSize(of: bytes)
        let tablePages = CacheDamage.pageRoles(of: bytes).filter { $0.key > 1 && $0.value == .table }.map(\.key).sorted()
        let page = atOpen || tablePages.isEmpty ? 1 : damage.random.pick(tablePages)
        let offset = (page - 1) * pageSize + (page == 1 ? 100 : 0)
        try CacheDamage.overwrite(url, at: offset, count: pageSize - (page == 1 ? 100 : 0), with: &damage.random)
        let damagedBytes = try Data(contentsOf: url)
        damage.parameters.append("garbage over page \(page)")
        let locks = ReadOnlyPaths()
        defer { locks.unlock() }
        do {
            if onFullDisk { try disk?.fill() } else { try locks.lock(folder) }
        } catch {
            outcome = .skipped
            step("skipped: \(error)")
            return
        }
        let blocked = onFullDisk ? "disk filled" : "folder made read-only"
        let smallDisk = disk
        let unblock = { onFullDisk ? smallDisk?.free() : locks.unlock() }
        step("built \(damage.notes.count) notes, garbage over page \(page), \(blocked)")
        let store: LiveStore
        do {
            store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        } catch {
            step("opening threw: \(error)")
            outcome = .thrownAtOpen
            expectNamed(error, file: url, during: "opening a damaged file, \(blocked)")
            // In a read-only folder the damage is the cause, or SQLite cannot even open the file
            // there (no -shm can be made); on a full disk, what stopped the new file
            // (SQLITE_FULL, or an I/O error sizing its shared memory).
            if !onFullDisk, !"\(error)".contains("malformed"), !"\(error)".contains("unable to open") {
                fail("opening a damaged file, \(blocked)", expected: "the damage as the cause", actual: "\(error)")
            }
            if (try? Data(contentsOf: url)) != damagedBytes || !damagedFiles(in: folder).isEmpty {
                fail("a failed open", expected: "the damaged file left in place", actual: "\(try FileManager.default.contentsOfDirectory(atPath: folder.path))")
            }
            unblock()
            try await expectRecoversOnceWritable(url)
            return
        }
        defer { withExtendedLifetime(store) {} }
        step("opened, recovery: \(store.recovery.map { "\($0)" } ?? "none")")
        // Reads and writes fail with the damage, named, as long as the file cannot be moved.
        for call in ["a read", "a write", "another read"] {
            do {
                if call == "a write" {
                    try await store.write { try $0.upsert(contentsOf: Note.numbered(300)) }
                } else {
                    _ = try await store.read { try $0.query(Self.allNotes) { $0.string(0) } }
                }
                step("\(call) succeeded")
            } catch {
                step("\(call) threw: \(error)")
                outcome = .thrownOnUse
                expectNamed(error, file: url, during: call + " of a damaged file, \(blocked)")
                if (error as? SQLiteError) == .closed {
                    fail(call + " after a recovery that could not move the file", expected: "the damage, named", actual: "\(error)")
                }
            }
        }
        if store.latestRecovery != nil || !damagedFiles(in: folder).isEmpty {
            fail("damage that cannot be replaced", expected: "no recovery and nothing moved aside",
                 actual: "\(store.latestRecovery.map { "\($0)" } ?? "none"), \(damagedFiles(in: folder))")
        }
        // Once the folder is writable or the disk has room, the next call that meets the damage
        // recovers.
        unblock()
        for attempt in 1...2 {
            do {
                let rows = try await store.read { try $0.query(Self.allNotes) { $0.string(0) } }
                step("read \(rows.count) notes once unblocked")
                break
            } catch {
                step("read \(attempt) once unblocked threw: \(error)")
                if attempt == 2 { fail("a store once unblocked", expected: "it recovers", actual: "\(error)") }
            }
        }
        // A write may be the first call to meet the damage (in the change log's pages, say): it
        // fails with it, the store recovers, and the next write commits.
        for attempt in 1...2 {
            do {
                try await store.write { try $0.upsert(Note(id: "probe", rank: 1)) }
                step("write \(attempt) once the folder is writable committed")
                break
            } catch {
                step("write \(attempt) once the folder is writable threw: \(error)")
                if attempt == 2 || !LiveStore.isRecoverable(error) || store.latestRecovery == nil {
                    fail("a write once the folder is writable", expected: "it commits, or recovers and the next one does", actual: "\(error)")
                    break
                }
            }
        }
        if store.latestRecovery != nil { outcome = .recoveredWhileRunning }
        await store.close()
    }

    /// Opens the file again once it can be replaced: the store recovers, at open or at the first
    /// call that meets the damage (a read, or a write that touches a damaged page of the change
    /// log), and works.
    private mutating func expectRecoversOnceWritable(_ url: URL) async throws {
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        _ = try? await store.read { try $0.query(Self.allNotes) { $0.string(0) } }
        for attempt in 1...2 {
            do {
                try await store.write { try $0.upsert(Note(id: "probe", rank: 1)) }
                break
            } catch {
                if attempt == 2 || !LiveStore.isRecoverable(error) {
                    fail("a write after reopening the damaged file once unblocked", expected: "it commits, or recovers and the next one does", actual: "\(error)")
                    break
                }
            }
        }
        if store.latestRecovery == nil {
            fail("reopening the damaged file once unblocked", expected: "a recovery", actual: "none")
        }
        await store.close()
    }
}
