import LiveDataPostgres
import PostgresNIO

/// The PostgreSQL store's counter rows (the change log's among them) locked by a transaction
/// of the test's own, so that a store's next write transaction waits at its first lock; the
/// test can then end that transaction's connection as a fast shutdown would
/// (``terminateWaitingBackend()``: SQLSTATE 57P01, "terminating connection due to administrator
/// command"), at a known point.
public final class ChangeLogLock {
    private let connection: PostgresConnection

    private init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Locks the counter rows of the database at `location` until ``release()``.
    public static func take(on location: PostgresLocation) async throws -> ChangeLogLock {
        let connection = try await TestPostgres.connect(location, id: 1)
        try await connection.query("BEGIN", logger: TestPostgres.logger)
        try await connection.query("SELECT value FROM server_counters FOR UPDATE", logger: TestPostgres.logger)
        return ChangeLogLock(connection: connection)
    }

    /// Waits until a backend of the database waits for a lock (polled, for at most 30 s), then
    /// terminates it.
    public func terminateWaitingBackend() async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let rows = try await connection.query(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                logger: TestPostgres.logger)
            for try await pid in rows.decode(Int32.self) {
                try await connection.query("SELECT pg_terminate_backend(\(pid))", logger: TestPostgres.logger)
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw PostgresStoreError.database("no backend waited for the change log's lock within 30 s")
    }

    /// Ends the transaction, letting waiting writers go on, and closes the connection.
    public func release() async throws {
        try await connection.query("ROLLBACK", logger: TestPostgres.logger)
        try await connection.close()
    }
}
