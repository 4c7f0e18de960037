import LiveRepository

/// The `notes` table of the engine's tests (`Tests/LiveRepositoryTests/Support/Note.swift`),
/// column for column and with the same migration, so that the helper opens a test's store file
/// as the test does.
struct StoreNote: CacheRecord {
    var id: String
    var folder: String
    var rank: Int
    var body: String
    var syncState: String

    static let table = RecordTable(
        name: "notes",
        columns: [.text("id"), .text("folder"), .integer("rank"), .text("body"), .text("syncState")],
        indexes: [["folder", "rank"]])

    static let migrations = [SQLiteMigration(version: 1, name: "create notes", sql: table.createStatements)]

    init(id: String, rank: Int, body: String) {
        self.id = id
        folder = "inbox"
        self.rank = rank
        self.body = body
        syncState = "synced"
    }

    init(row: SQLiteRow) throws {
        id = row.string(0)
        folder = row.string(1)
        rank = row.int(2)
        body = row.string(3)
        syncState = row.string(4)
    }

    var columnValues: [SQLiteValue] { [.text(id), .text(folder), .int(rank), .text(body), .text(syncState)] }
}
