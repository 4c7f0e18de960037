/// Where a locally made change stands with the server.
///
/// Mutations write to the cache first with ``syncing``, then reconcile with the server's answer:
/// ``synced`` with the server's version of the record, or ``error`` when the server refused or
/// could not be reached.
public enum SyncState: String, Sendable, Hashable, CaseIterable, ColumnValue {
    /// Written locally; the server has not answered yet.
    case syncing
    /// The server has the record as shown.
    case synced
    /// The server refused the change or could not be reached; the local record is kept.
    case error
}
