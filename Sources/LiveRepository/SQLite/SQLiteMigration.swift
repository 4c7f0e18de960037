/// One step of a database schema: a version number and the change that reaches it.
///
/// Give a ``SQLiteMigrator`` every migration an app has ever shipped, in any order; it runs the
/// ones a database has not seen yet, each in its own transaction.
public struct SQLiteMigration: Sendable {
    /// The schema version this migration produces; versions start at 1.
    public let version: Int
    /// A short name for errors and logs, such as "create messages".
    public let name: String
    let body: @Sendable (SQLiteConnection) throws -> Void

    /// Creates a migration that runs `body` to bring the schema to `version`.
    public init(version: Int, name: String, _ body: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        precondition(version >= 1, "migration versions start at 1")
        self.version = version
        self.name = name
        self.body = body
    }

    /// Creates a migration that runs a SQL script.
    public init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name) { try $0.executeScript(sql) }
    }
}
