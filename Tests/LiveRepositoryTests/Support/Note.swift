import LiveRepository

/// A small record for the engine's tests: a note with a rank to sort by and a sync state.
struct Note: CacheRecord, Hashable {
    var id: String
    var folder: String
    var rank: Int
    var body: String
    var syncState: SyncState = .synced

    static let table = RecordTable(
        name: "notes",
        columns: [.text("id"), .text("folder"), .integer("rank"), .text("body"), .text("syncState")],
        indexes: [["folder", "rank"]])

    init(id: String, folder: String = "inbox", rank: Int, body: String = "", syncState: SyncState = .synced) {
        self.id = id
        self.folder = folder
        self.rank = rank
        self.body = body
        self.syncState = syncState
    }

    init(row: SQLiteRow) throws {
        id = row.string(0)
        folder = row.string(1)
        rank = row.int(2)
        body = row.string(3)
        syncState = SyncState(rawValue: row.string(4)) ?? .synced
    }

    var columnValues: [SQLiteValue] { [.text(id), .text(folder), .int(rank), .text(body), .text(syncState.rawValue)] }

    static let migrations = [SQLiteMigration(version: 1, name: "create notes", sql: table.createStatements)]

    /// Notes `n1`...`nN` in `folder` with ranks 1...N.
    static func numbered(_ count: Int, folder: String = "inbox") -> [Note] {
        (1...max(1, count)).prefix(count).map { Note(id: "n\($0)", folder: folder, rank: $0, body: "note \($0)") }
    }
}
