/// Brings a database's schema up to date by running versioned migrations.
///
/// The version lives in the file (`PRAGMA user_version`). A database at version 2 given
/// migrations 1 to 4 runs 3 and 4, each in a transaction: a migration that throws leaves the
/// database at the last version that succeeded.
public struct SQLiteMigrator: Sendable {
    /// The migrations, sorted by version.
    public let migrations: [SQLiteMigration]

    /// Creates a migrator. Versions must be distinct.
    public init(_ migrations: [SQLiteMigration]) {
        let sorted = migrations.sorted { $0.version < $1.version }
        precondition(
            Set(sorted.map(\.version)).count == sorted.count,
            "two migrations have the same version")
        self.migrations = sorted
    }

    /// The version the schema has once every migration has run.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// An error that stops a migration.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The database was written by a newer schema than this app knows.
        case databaseIsNewer(found: Int, latestKnown: Int)
        /// A migration failed; the database stays at the version before it.
        case migrationFailed(version: Int, name: String, underlying: any Error)

        /// A readable explanation.
        public var description: String {
            switch self {
            case .databaseIsNewer(let found, let latest):
                "the database has schema version \(found), newer than the latest this app knows (\(latest))"
            case .migrationFailed(let version, let name, let underlying):
                "migration \(version) (\(name)) failed: \(underlying)"
            }
        }
    }

    /// Runs the migrations `connection` has not run yet.
    ///
    /// - Returns: the versions that ran, in order.
    /// - Throws: ``Failure`` or the ``SQLiteError`` that reading the version raised.
    @discardableResult
    public func migrate(_ connection: SQLiteConnection) throws -> [Int] {
        let current = try connection.userVersion()
        guard current <= latestVersion else {
            throw Failure.databaseIsNewer(found: current, latestKnown: latestVersion)
        }
        var ran: [Int] = []
        for migration in migrations where migration.version > current {
            let didRun: Bool
            do {
                didRun = try connection.transaction {
                    // Another connection on the file (another process opening it at the same
                    // moment) may have run this migration since `current` was read. The
                    // transaction holds the write lock, so the version read now is final.
                    guard try connection.userVersion() < migration.version else { return false }
                    try migration.body(connection)
                    try connection.setUserVersion(migration.version)
                    return true
                }
            } catch {
                throw Failure.migrationFailed(version: migration.version, name: migration.name, underlying: error)
            }
            if didRun { ran.append(migration.version) }
        }
        return ran
    }
}
