import LiveSocial

extension PostgresServerStore {
    /// The record the store notes each outermost transaction's outcome in, within
    /// ``revealingStoreErrors(_:)``.
    @TaskLocal static var failureRecord: StoreFailureRecord?

    /// Runs `body`; when it fails with `SocialAPIError.serverFailure` because a transaction of a
    /// PostgreSQL store failed in this task, throws that transaction's ``PostgresStoreError``.
    ///
    /// The server's rules (`EmbeddedServer`) pass a store's error on as a server failure that
    /// holds only its text. Within `body`, each outermost transaction a PostgreSQL store runs for
    /// this task notes how it ended (a task-local value: the task's calls into the server run
    /// the store synchronously), so the caller gets the error's case back, such as
    /// ``PostgresStoreError/connectionLost(_:)``, classified from postgres-nio's error code and
    /// the server's SQLSTATE. Every other error of `body` is thrown as it is.
    public static func revealingStoreErrors<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let record = StoreFailureRecord()
        do {
            return try await $failureRecord.withValue(record) { try await body() }
        } catch let error as SocialAPIError {
            guard case .serverFailure = error, let cause = record.last else { throw error }
            throw cause
        }
    }
}
