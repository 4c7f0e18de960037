import Dispatch

extension LiveStore {
    /// Opens the cache at `location` off the caller's thread: what
    /// ``init(location:migrations:externalChanges:)`` does, for callers on the main actor.
    ///
    /// Opening can take a while: it runs `migrations`, waits up to five seconds for a file
    /// another process is writing, and may move a damaged file aside and build a new one. This
    /// runs all of it on a background queue, so an app's first screen keeps drawing meanwhile.
    ///
    /// ```swift
    /// let store = try await LiveStore.open(location: .file(cacheURL), migrations: Note.migrations)
    /// ```
    ///
    /// - Throws: what the initializer throws.
    public static func open(
        location: SQLiteConnection.Location, migrations: [SQLiteMigration],
        externalChanges: ExternalChangeDetection = .default
    ) async throws -> LiveStore {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result {
                    try LiveStore(location: location, migrations: migrations, externalChanges: externalChanges)
                })
            }
        }
    }
}
