import Dispatch
import Foundation

/// A second connection to a store's database, used only to read, so that a read never waits
/// behind the store's queue.
///
/// A file store's file is in WAL mode: a reader sees the last committed state while the writer's
/// transaction runs, and neither waits for the other. An in-memory store's database is shared by
/// name between its two connections (SQLite's `memdb`), which has no WAL: a read that comes while
/// a write transaction runs waits for its commit (never for the other work of the store's queue).
/// The live collections read records with it on demand (``LiveCollection/object(at:)`` on a row
/// not decoded yet) and ahead of a scrolling reader. What it reads may be newer than what
/// observers saw last (a write committed and not delivered yet); callers check that a record is
/// still the one a row stands for.
///
/// `@unchecked Sendable`: `connection` and `isClosed` are used only on `queue`.
final class StoreReader: @unchecked Sendable {
    /// The database a reader reads.
    enum Database: Sendable {
        /// A store file, which the store has opened and migrated already.
        case file(URL)
        /// An in-memory store's database, by its shared name (see
        /// `SQLiteConnection.init(sharedMemoryNamed:readOnly:)`), which the store's connection holds open.
        case memory(name: String)
    }

    private let database: Database
    private let queue = DispatchQueue(label: "LiveRepository.LiveStore.reader", qos: .userInitiated)
    private var connection: SQLiteConnection?
    /// Set by ``close()``: the reader does not open the database again.
    private var isClosed = false

    /// A reader of `database`. It opens it now; if that fails, each read tries again (and
    /// throws the error of the open while it fails).
    init(_ database: Database) {
        self.database = database
        connection = try? Self.open(database)
    }

    private static func open(_ database: Database) throws -> SQLiteConnection {
        switch database {
        case .file(let url):
            let connection = try SQLiteConnection(location: .file(url), readOnly: true)
            // A WAL reader is busy only while another connection rebuilds the shared index: wait
            // a little, not the writer's 5 s, since the main actor may be the one waiting.
            try connection.execute("PRAGMA busy_timeout = 250")
            return connection
        case .memory(let name):
            // Busy whenever a write transaction runs: the read waits for its commit, as long as
            // the writer waits for a lock (about 5 s), since failing would leave a row undecoded.
            return try SQLiteConnection(sharedMemoryNamed: name, readOnly: true)
        }
    }

    /// On `queue`: the connection, opened again if an earlier open failed (at first, or after a
    /// recovery).
    private func current() throws -> SQLiteConnection {
        if let connection { return connection }
        guard !isClosed else { throw SQLiteError.closed }
        let opened = try Self.open(database)
        connection = opened
        return opened
    }

    /// Runs `body` now on the caller's thread. It waits for another read of this reader (a read
    /// ahead of a scrolling list, a few hundred rows), never for the store's queue; in memory,
    /// also for the end of a write transaction under way.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try queue.sync { try body(current()) }
    }

    /// Runs `body` on the reader's queue, then `completion` on the main actor with its result.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws -> T,
        completion: @escaping @MainActor @Sendable (Result<T, any Error>) -> Void
    ) {
        queue.async {
            let result = Result { try body(self.current()) }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(result) } }
        }
    }

    /// Opens the file again, after the store replaced a damaged one with a new file at its URL.
    /// Until then reads see the old file; if the open fails, the next read tries again.
    func reopen() {
        queue.sync {
            connection?.close()
            connection = try? Self.open(database)
        }
    }

    /// Closes the connection; later reads fail with ``SQLiteError/closed``.
    func close() {
        queue.sync {
            connection?.close()
            connection = nil
            isClosed = true
        }
    }
}
