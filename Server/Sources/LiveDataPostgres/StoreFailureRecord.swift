import Foundation

/// How the last outermost transaction of a PostgreSQL store ended in one task: its
/// ``PostgresStoreError``, or nil when it committed or failed with another error. Kept for
/// ``PostgresServerStore/revealingStoreErrors(_:)`` in a task-local value.
final class StoreFailureRecord: @unchecked Sendable {
    // @unchecked Sendable: `lock` guards `error` (the store's thread writes it, the task reads it).
    private let lock = NSLock()
    private var error: PostgresStoreError?

    /// The error of the last outermost transaction, if it failed with a store error.
    var last: PostgresStoreError? { lock.withLock { error } }

    /// Notes how an outermost transaction ended.
    func note(_ error: PostgresStoreError?) { lock.withLock { self.error = error } }
}
