import Foundation
import LiveRepository
import TestSupport

/// Damage that a running store finds only when it reads from the disk.
enum CacheDamage {
    /// Fills the store at `url` with 400 notes of 600 bytes, moves everything into the main file
    /// with almost nothing left cached, then overwrites the middle of the file: the next full read
    /// of `notes` goes to the disk and finds the damage.
    static func fillThenOverwriteTheMiddle(of store: LiveStore, at url: URL) async throws {
        let body = String(repeating: "x", count: 600)
        try await store.write { transaction in
            for rank in 1...400 { try transaction.upsert(Note(id: "n\(rank)", rank: rank, body: body)) }
        }
        try await store.read { connection in
            try connection.execute("PRAGMA cache_size = 1")
            _ = try connection.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int(0) }
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: 8 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 40 * 4096))
        try handle.close()
    }
}

// MARK: Damage to a closed cache file

extension CacheDamage {
    /// What a page of a database file holds, as its b-tree page type byte says.
    enum PageRole: String, CaseIterable, Sendable {
        /// Page 1's first 100 bytes: the database header.
        case header
        /// The rest of page 1: the root of `sqlite_schema`.
        case schema
        /// A table b-tree page (interior or leaf): rows.
        case table
        /// An index b-tree page (interior or leaf).
        case index
        /// Anything else: overflow, free-list or pointer-map pages.
        case other
    }

    /// The page size in the header of `bytes` (4096 when the header is unreadable).
    static func pageSize(of bytes: Data) -> Int {
        guard bytes.count >= 18 else { return 4096 }
        let start = bytes.startIndex
        let size = Int(bytes[start + 16]) << 8 | Int(bytes[start + 17])
        return size == 1 ? 65_536 : (size >= 512 ? size : 4096)
    }

    /// The role of each page of a database file, by page number (1-based), from each page's type
    /// byte; page 1 counts as `.schema` (its header is `.header`).
    static func pageRoles(of bytes: Data) -> [Int: PageRole] {
        let size = pageSize(of: bytes)
        var roles: [Int: PageRole] = [:]
        let pages = bytes.count / size
        guard pages >= 1 else { return roles }
        roles[1] = .schema
        for page in stride(from: 2, through: pages, by: 1) {
            switch bytes[bytes.startIndex + (page - 1) * size] {
            case 0x0D, 0x05: roles[page] = .table
            case 0x0A, 0x02: roles[page] = .index
            default: roles[page] = .other
            }
        }
        return roles
    }

    /// Makes a cache at `url` holding `notes`, everything checkpointed into the main file and the
    /// store closed: the file as a clean quit leaves it, ready to be damaged.
    static func checkpointedCache(at url: URL, notes: [Note]) async throws {
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        try await store.write { try $0.upsert(contentsOf: notes) }
        _ = try await store.read { try $0.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int(0) } }
        await store.close()
    }

    /// Writes `bytes` over the file at `url` from `offset`.
    static func overwrite(_ url: URL, at offset: Int, with bytes: [UInt8]) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data(bytes))
    }

    /// Cuts the file at `url` to `length` bytes.
    static func truncate(_ url: URL, to length: Int) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(length))
    }

    /// Overwrites `count` bytes of the file at `url` from `offset` with bytes from `random`.
    static func overwrite(_ url: URL, at offset: Int, count: Int, with random: inout SeededRandom) throws {
        let garbage = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        try overwrite(url, at: offset, with: garbage)
    }

    /// Commits `notes` to a store on `url` and copies the main file (and, with
    /// `keepingSharedMemory`, its `-shm`) while those commits are still only in the WAL, then
    /// closes the store and puts the copies in place without any WAL: the file as a crash after
    /// the commit leaves it once someone deletes the `-wal` file before anything checkpointed.
    static func commitThenLoseTheWAL(_ notes: [Note], at url: URL, keepingSharedMemory: Bool) async throws {
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        try await store.write { try $0.upsert(contentsOf: notes) }
        // On the store's queue: nothing checkpoints while the copies are taken.
        let (main, sharedMemory) = try await store.read { _ in
            (try Data(contentsOf: url), try? Data(contentsOf: URL(fileURLWithPath: url.path + "-shm")))
        }
        await store.close()
        let fileManager = FileManager.default
        for suffix in ["-wal", "-shm"] where fileManager.fileExists(atPath: url.path + suffix) {
            try fileManager.removeItem(atPath: url.path + suffix)
        }
        try main.write(to: url)
        if keepingSharedMemory, let sharedMemory { try sharedMemory.write(to: URL(fileURLWithPath: url.path + "-shm")) }
    }
}

extension CacheDamage {
    /// Leaves the cleanly closed file at `url` as a crash would: with its `-wal` and `-shm`
    /// files, taken while a store has it open (a clean close deletes them).
    static func leaveAsACrashWould(_ url: URL) async throws {
        let store = try LiveStore(location: .file(url), migrations: Note.migrations, externalChanges: .off)
        let files = try await store.read { _ in
            try ["", "-wal", "-shm"].map { ($0, try Data(contentsOf: URL(fileURLWithPath: url.path + $0))) }
        }
        await store.close()
        for (suffix, bytes) in files { try bytes.write(to: URL(fileURLWithPath: url.path + suffix)) }
    }
}
