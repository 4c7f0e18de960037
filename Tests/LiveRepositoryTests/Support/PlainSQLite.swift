import CSQLite
import Foundation

/// What SQLite itself reads from a database file, through the C API and nothing of this
/// package: the reference the corruption tests hold `LiveStore` to.
enum PlainSQLite {
    /// The rows of `sql` as text (every byte SQLite returns, NULL as ""), or SQLite's result code
    /// and message.
    enum Answer: Equatable, CustomStringConvertible {
        case rows([[String]])
        case failure(code: Int32, message: String)

        var rows: [[String]]? { if case .rows(let rows) = self { rows } else { nil } }

        /// Whether SQLite found the file damaged (`SQLITE_CORRUPT` or `SQLITE_NOTADB`).
        var isCorruption: Bool {
            if case .failure(let code, _) = self { code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB } else { false }
        }

        var description: String {
            switch self {
            case .rows(let rows): "\(rows.count) rows"
            case .failure(let code, let message): "SQLite error \(code): \(message)"
            }
        }
    }

    /// Runs `sql` on a copy of the file at `url` (and of its `-wal` and `-shm` companions), so
    /// that nothing of the original changes, not even its shared-memory index.
    static func readCopy(of url: URL, _ sql: String) -> Answer {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-livedata-plain-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let copy = directory.appendingPathComponent(url.lastPathComponent)
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
                try FileManager.default.copyItem(atPath: url.path + suffix, toPath: copy.path + suffix)
            }
            return read(copy, sql)
        } catch {
            return .failure(code: -1, message: "copying the file failed: \(error)")
        }
    }

    /// Runs `sql` on the file at `url` in place.
    static func read(_ url: URL, _ sql: String) -> Answer {
        var database: OpaquePointer?
        defer { sqlite3_close_v2(database) }
        let opened = sqlite3_open_v2(url.path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_EXRESCODE, nil)
        guard opened == SQLITE_OK, let database else {
            return .failure(code: opened, message: String(cString: sqlite3_errstr(opened)))
        }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        let prepared = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            return .failure(code: sqlite3_extended_errcode(database), message: String(cString: sqlite3_errmsg(database)))
        }
        var rows: [[String]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return .rows(rows) }
            guard code == SQLITE_ROW else {
                return .failure(code: sqlite3_extended_errcode(database), message: String(cString: sqlite3_errmsg(database)))
            }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                guard let text = sqlite3_column_text(statement, column) else { return "" }
                let length = Int(sqlite3_column_bytes(statement, column))
                return String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
            })
        }
    }
}
