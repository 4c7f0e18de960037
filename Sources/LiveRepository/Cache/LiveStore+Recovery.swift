import CSQLite
import Foundation

/// Opening a cache file, and replacing a damaged one (see ``LiveStore/recovery``).
extension LiveStore {
    /// Opens and migrates the writing connection of the cache at `location`; in memory, the
    /// database shared by `memoryName` (see ``reader``).
    static func open(
        _ location: SQLiteConnection.Location, memoryName: String, migrator: SQLiteMigrator
    ) throws -> SQLiteConnection {
        let connection: SQLiteConnection
        switch location {
        case .file(let url):
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            connection = try SQLiteConnection(location: location)
        case .inMemory:
            connection = try SQLiteConnection(sharedMemoryNamed: memoryName)
        }
        // Reading the schema touches the first pages: a damaged file usually fails here.
        _ = try connection.query("SELECT name FROM sqlite_schema") { $0.string(0) }
        try migrator.migrate(connection)
        if case .file = location { try StoreChangeLog.create(on: connection) }
        return connection
    }

    /// Opens the cache and, for a file, starts reading its change log: the log's first read
    /// (its table and `sqlite_sequence`) may be what finds a damaged file, which is then
    /// recovered like any damage found when opening.
    static func openWithLog(
        _ location: SQLiteConnection.Location, memoryName: String, migrator: SQLiteMigrator
    ) throws -> (SQLiteConnection, StoreChangeLog?) {
        let connection = try open(location, memoryName: memoryName, migrator: migrator)
        guard case .file = location else { return (connection, nil) }
        do {
            return (connection, try StoreChangeLog(connection: connection))
        } catch {
            connection.close()
            throw error
        }
    }

    /// Whether an error that opening the file met (before the store wrote anything) is damage too:
    /// `SQLITE_TOOBIG` there comes from reading the file's schema, whose record sizes garbage on
    /// its first page can make impossible. Written data can raise it as well, so only at open.
    static func isDamageAtOpen(_ error: any Error) -> Bool {
        (error as? SQLiteError)?.code == SQLITE_TOOBIG
    }

    static func isRecoverable(_ error: any Error) -> Bool {
        switch error {
        case let error as SQLiteError: error.isCorruption || error.isUnsupportedFileFormat
        case SQLiteMigrator.Failure.databaseIsNewer: true
        // A schema error from a migration run on the file (a table that "already exists", a
        // "duplicate column name"): the file's schema contradicts the version in its header, as
        // a damaged header leaves it. A migration that fails for that reason on a new file too
        // is thrown after all. A full disk, a busy or read-only file is no damage.
        case SQLiteMigrator.Failure.migrationFailed(_, _, let underlying):
            isRecoverable(underlying) || (underlying as? SQLiteError)?.code == SQLITE_ERROR
        default: false
        }
    }

    /// Moves the file and its WAL and shared-memory companions to `<name>.damaged-<time>`.
    static func moveAside(_ url: URL) throws -> URL {
        let stamp = Int(Date().timeIntervalSince1970 * 1000)
        let target = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).damaged-\(stamp)")
        let fileManager = FileManager.default
        try fileManager.moveItem(at: url, to: target)
        for suffix in ["-wal", "-shm"] {
            let companion = URL(fileURLWithPath: url.path + suffix)
            if fileManager.fileExists(atPath: companion.path) {
                try? fileManager.moveItem(at: companion, to: URL(fileURLWithPath: target.path + suffix))
            }
        }
        return target
    }

    /// Puts a damaged file moved aside to `movedTo` back at `url`, in place of the new cache that
    /// could not be made there (whose partial files are deleted).
    static func putBack(_ movedTo: URL, at url: URL) {
        let fileManager = FileManager.default
        for suffix in ["", "-wal", "-shm"] {
            try? fileManager.removeItem(atPath: url.path + suffix)
            if fileManager.fileExists(atPath: movedTo.path + suffix) {
                try? fileManager.moveItem(atPath: movedTo.path + suffix, toPath: url.path + suffix)
            }
        }
    }

    /// On `queue`: if `error` shows the file is damaged, replaces it with a new cache and returns
    /// a change that makes every observer of every table reload.
    func recoverIfDamaged(_ error: any Error) -> StoreChange? {
        guard case .file(let url) = location, Self.isRecoverable(error) else { return nil }
        connection.close()
        let movedTo: URL
        do {
            movedTo = try Self.moveAside(url)
        } catch {
            // The file cannot be moved (a read-only folder): use it again, so that later calls
            // report the damage, naming the file, and recover once it can be moved.
            if let reopened = try? SQLiteConnection(location: location) { connection = reopened }
            return nil
        }
        do {
            connection = try Self.open(location, memoryName: memoryName, migrator: migrator)
            lock.withLock { lastRecovery = CacheRecovery(error: error, movedTo: movedTo) }
        } catch {
            // No new cache could be made (a full disk): put the damaged file back and use it
            // again, so that later calls report the damage and recover once there is room.
            Self.putBack(movedTo, at: url)
            if let reopened = try? SQLiteConnection(location: location) { connection = reopened }
            return nil
        }
        reader.reopen()
        try? changeLog?.reset(connection: connection)
        let tables = (try? StoreChangeLog.everyTable(connection)) ?? [:]
        return tables.mapValues { _ in TableChange(isWholeTable: true, isRebuilt: true) }
    }
}
