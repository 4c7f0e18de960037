import CSQLite

/// An error reported by SQLite, or by this package's use of it.
///
/// Every SQLite call that can fail is checked; a failure becomes this error, carrying SQLite's
/// result code and message, the database file it happened in, and, where there is one, the SQL
/// that failed. Its ``description`` names all of them, so a log line says which file is damaged,
/// full or read-only, and why.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite's extended result code, such as `SQLITE_CONSTRAINT_PRIMARYKEY` (1555).
    public let extendedCode: Int32
    /// SQLite's message for the failure, such as "UNIQUE constraint failed: users.id".
    public let message: String
    /// The statement that failed, when the failure belongs to one.
    public let sql: String?
    /// The path of the database file the failure happened in; nil for a database in memory and
    /// for errors that belong to no connection (such as ``closed``).
    public let path: String?

    /// Creates an error from a result code, a message, the statement that failed and the path of
    /// the database file.
    public init(code: Int32, message: String, sql: String? = nil, path: String? = nil) {
        self.extendedCode = code
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// The primary result code: the extended code without its detail bits, such as `SQLITE_CONSTRAINT` (19).
    public var code: Int32 { extendedCode & 0xFF }

    /// Whether the database file is damaged or is not a database at all.
    public var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

    /// Whether the file is in a format this SQLite cannot read: its header names a schema format
    /// or file format version it does not know, as a newer SQLite or a damaged header leaves it.
    /// SQLite reports it as a plain `SQLITE_ERROR` with the message "unsupported file format".
    var isUnsupportedFileFormat: Bool { code == SQLITE_ERROR && message.hasPrefix("unsupported file format") }

    /// Whether a constraint (unique, not null, foreign key, check) refused the change.
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    /// An error for a stored value of the wrong kind (`SQLITE_MISMATCH`), such as text a model
    /// cannot decode into one of its enumerations.
    public static func mismatch(_ message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_MISMATCH, message: message)
    }

    /// The error thrown by any use of a connection after ``SQLiteConnection/close()``.
    public static let closed = SQLiteError(code: SQLITE_MISUSE, message: "the database connection is closed")

    /// A readable description: the code, SQLite's message, the file, and the statement, as
    /// "SQLite error 11: database disk image is malformed (in /path/cache.sqlite) (while running: …)".
    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let path, !message.contains(path) { text += " (in \(path))" }
        if let sql { text += " (while running: \(sql))" }
        return text
    }
}
