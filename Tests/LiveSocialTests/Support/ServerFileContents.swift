import Foundation
import LiveRepository

/// Everything a server file holds, read with plain SQL from a copy of it (so the reading changes
/// nothing of the original): every table's rows, and the bytes of the file and its WAL.
///
/// Two are equal when the server's data is row for row and byte for byte the same.
/// The shared-memory index (`-shm`) is left out: readers write their marks in it.
struct ServerFileContents: Equatable {
    /// Each table's rows, every column as text ("NULL" for NULL), sorted.
    let tables: [String: [[String]]]
    let fileBytes: Data
    let walBytes: Data?

    init(of url: URL) throws {
        fileBytes = try Data(contentsOf: url)
        walBytes = try? Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-livedata-snapshot-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("server.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            try FileManager.default.copyItem(atPath: url.path + suffix, toPath: copy.path + suffix)
        }
        let connection = try SQLiteConnection(location: .file(copy))
        defer { connection.close() }
        let names = try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.string(0) }
        var tables: [String: [[String]]] = [:]
        for name in names {
            let escaped = name.replacingOccurrences(of: "\"", with: "\"\"")
            tables[name] = try connection.query("SELECT * FROM \"\(escaped)\"") { row in
                (0..<row.count).map { row.isNull($0) ? "NULL" : row.string($0) }
            }.sorted { $0.lexicographicallyPrecedes($1) }
        }
        self.tables = tables
    }

    /// What differs from `other`, for a failure report.
    func differences(from other: ServerFileContents) -> String {
        var lines: [String] = []
        for name in Set(tables.keys).union(other.tables.keys).sorted() where tables[name] != other.tables[name] {
            lines.append("table \(name): \(tables[name]?.count ?? 0) rows before, \(other.tables[name]?.count ?? 0) after")
        }
        if fileBytes != other.fileBytes { lines.append("the file's bytes changed") }
        if walBytes != other.walBytes { lines.append("the WAL's bytes changed") }
        return lines.isEmpty ? "none" : lines.joined(separator: "; ")
    }
}
