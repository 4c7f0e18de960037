import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only connection that reads one file's `PRAGMA data_version` for the timer of
/// ``ExternalChangeMonitor``, and never waits after its first read: it then has no busy timeout,
/// so a file that is locked costs one failed read, and the monitor's queue, which serves every
/// store's wake-ups, never stalls behind it.
///
/// It remembers which file it opened (device and inode): a file replaced at its path (a damaged
/// cache moved aside and made anew) is no longer the one it reads, and ``isStillAtPath`` says so.
///
/// Not `Sendable`: used only on the monitor's queue.
final class DataVersionReader {
    /// What one read gave.
    enum Reading: Equatable {
        case version(Int64)
        /// Locked by another connection for a moment (a checkpoint, a recovery): try again later.
        case busy
        /// Not readable (gone, damaged): open anew.
        case failed
    }

    let path: String
    private var handle: OpaquePointer?
    private var statement: OpaquePointer?
    private let identity: FileIdentity?

    /// Opens `path` for reading; nil when it cannot be opened (no file there, say).
    init?(path: String) {
        self.path = path
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let database else {
            sqlite3_close_v2(database)
            return nil
        }
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(database, "PRAGMA data_version", -1, &prepared, nil) == SQLITE_OK, let prepared else {
            sqlite3_close_v2(database)
            return nil
        }
        handle = database
        statement = prepared
        identity = FileIdentity(path: path)
    }

    deinit { close() }

    /// The file's data version now, waiting up to `patience` milliseconds for a lock (0: not at
    /// all, as at every tick).
    func read(patience: Int32 = 0) -> Reading {
        guard let statement, let handle else { return .failed }
        sqlite3_busy_timeout(handle, patience)
        defer {
            sqlite3_reset(statement)
            if patience > 0 { sqlite3_busy_timeout(handle, 0) }
        }
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return .version(sqlite3_column_int64(statement, 0))
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        default: return .failed
        }
    }

    /// Whether the file at ``path`` is still the one this connection opened (one `stat`).
    var isStillAtPath: Bool {
        identity == nil || FileIdentity(path: path) == identity
    }

    func close() {
        sqlite3_finalize(statement)
        statement = nil
        sqlite3_close_v2(handle)
        handle = nil
    }
}

/// A file's device and inode: what stays the same while the file is renamed or written, and
/// differs for another file put at its path.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
