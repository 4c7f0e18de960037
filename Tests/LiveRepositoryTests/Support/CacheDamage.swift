import Foundation
import LiveRepository

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
