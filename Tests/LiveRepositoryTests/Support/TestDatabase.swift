import Foundation
import LiveRepository
import TestSupport

/// Where a test's database lives: in memory, or in a file of a fresh temporary directory.
///
/// Use it as a test argument to run one behaviour on both kinds of database.
enum TestDatabase: String, Sendable, CaseIterable, CustomStringConvertible {
    case inMemory
    case file

    var description: String { rawValue }

    /// Opens a fresh database of this kind, runs `body` with it, then closes it and removes
    /// its files.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        switch self {
        case .inMemory:
            let connection = try SQLiteConnection(location: .inMemory)
            defer { connection.close() }
            return try body(connection)
        case .file:
            let directory = try TemporaryDirectory()
            let connection = try SQLiteConnection(location: .file(directory.file("test.sqlite")))
            defer {
                connection.close()
                withExtendedLifetime(directory) {}
            }
            return try body(connection)
        }
    }

    /// A store of this kind with the `notes` table, and the directory holding its file (nil in
    /// memory), which the caller keeps alive for as long as it uses the store.
    @MainActor
    func makeStore() throws -> (LiveStore, TemporaryDirectory?) {
        switch self {
        case .inMemory:
            return (try LiveStore(location: .inMemory, migrations: Note.migrations), nil)
        case .file:
            let directory = try TemporaryDirectory()
            return (try LiveStore(location: .file(directory.file("cache.sqlite")), migrations: Note.migrations), directory)
        }
    }
}
