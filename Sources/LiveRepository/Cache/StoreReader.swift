import Dispatch
import Foundation

/// A second connection to a store's file, used only to read, so that a read never waits behind
/// the store's writes.
///
/// The store's file is in WAL mode: a reader sees the last committed state while the writer's
/// transaction runs, and neither waits for the other. The live collections read records with
/// it on demand (``LiveCollection/object(at:)`` on a row not decoded yet) and ahead of a
/// scrolling reader. What it reads may be newer than what observers saw last (a write committed
/// and not delivered yet); callers check that a record is still the one a row stands for.
///
/// `@unchecked Sendable`: `connection` and `isClosed` are used only on `queue`.
final class StoreReader: @unchecked Sendable {
    private let url: URL
    private let queue = DispatchQueue(label: "LiveRepository.LiveStore.reader", qos: .userInitiated)
    private var connection: SQLiteConnection?
    /// Set by ``close()``: the reader does not open the file again.
    private var isClosed = false

    /// Opens a reading connection to the store file at `url`, which the store has opened and
    /// migrated already.
    init(url: URL) throws {
        self.url = url
        connection = try Self.open(url)
    }

    private static func open(_ url: URL) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(location: .file(url), readOnly: true)
        // A WAL reader is busy only while another connection rebuilds the shared index: wait a
        // little, not the writer's 5 s, since the main actor may be the one waiting.
        try connection.execute("PRAGMA busy_timeout = 250")
        return connection
    }

    /// On `queue`: the connection, opened again if an earlier open failed (after a recovery).
    private func current() throws -> SQLiteConnection {
        if let connection { return connection }
        guard !isClosed else { throw SQLiteError.closed }
        let opened = try Self.open(url)
        connection = opened
        return opened
    }

    /// Runs `body` now on the caller's thread. It waits only for another read of this reader
    /// (a read ahead of a scrolling list, a few hundred rows), never for a write.
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

    /// Opens the file again, after the store replaced a damaged one with a new file at `url`.
    /// Until then reads see the old file; if the open fails, the next read tries again.
    func reopen() {
        queue.sync {
            connection?.close()
            connection = try? Self.open(url)
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
