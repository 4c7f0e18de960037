import Foundation
import LiveRepository

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
            return try Self.withTemporaryDirectory { directory in
                let connection = try SQLiteConnection(location: .file(directory.appendingPathComponent("test.sqlite")))
                defer { connection.close() }
                return try body(connection)
            }
        }
    }

    /// Runs `body` with a new, empty directory under the system's temporary directory, and
    /// removes the directory and everything in it afterwards, also when `body` throws.
    static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("LiveRepositoryTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }
}
