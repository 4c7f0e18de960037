@testable import LiveRepository
import Testing

@Suite struct WindowReaderTests {
    /// A table of notes in two folders, with the index a folder's query could read through (and,
    /// as in a cache, no statistics: SQLite then takes an equality on an indexed column to keep
    /// few rows).
    private func notes(inbox: Int, archive: Int) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(location: .inMemory)
        try connection.executeScript(Note.table.createStatements)
        let rows = Note.numbered(inbox) + Note.numbered(archive, folder: "archive").map { note in
            var note = note
            note.id = "a\(note.rank)"
            return note
        }
        for note in rows {
            try connection.execute("INSERT INTO notes VALUES (?, ?, ?, ?, ?)", note.columnValues)
        }
        return connection
    }

    private func rowid(of id: String, in connection: SQLiteConnection) throws -> Int64 {
        try #require(try connection.queryFirst("SELECT rowid FROM notes WHERE id = ?", [.text(id)]) { $0.int64(0) })
    }

    @Test func matchingKeepsTheTouchedRowsTheQueryMatchesAndSkipsTheOthers() throws {
        let connection = try notes(inbox: 20, archive: 5)
        let reader = WindowReader(query: CacheQuery<Note>([.equals("folder", "inbox")], orderBy: "rank"), ascending: true)
        let touched = try ["n3", "n17", "a2"].map { try rowid(of: $0, in: connection) } + [999_999]
        let found = try reader.matching(touched, in: connection)
        #expect(Set(found.map(\.id)) == ["n3", "n17"])
        #expect(Set(found.map(\.value)) == [.int(3), .int(17)])
        #expect(try reader.matching([Int64](), in: connection).isEmpty)
        // One rowid, the common commit, has a statement of its own.
        #expect(try reader.matching([touched[0]], in: connection).map(\.id) == ["n3"])
        #expect(try reader.matching([touched[2]], in: connection).isEmpty)
    }

    @Test func recordsReadsTheRowsThatAreStillThere() throws {
        let connection = try notes(inbox: 20, archive: 5)
        let reader = WindowReader(query: CacheQuery<Note>([.equals("folder", "inbox")], orderBy: "rank"), ascending: true)
        let rowids = try ["n3", "a2"].map { try rowid(of: $0, in: connection) }
        // Whatever the query: a record read by rowid is the row's, matched or not.
        #expect(try reader.records(rowids + [999_999], in: connection).mapValues(\.id) == [rowids[0]: "n3", rowids[1]: "a2"])
        #expect(try reader.records([rowids[1]], in: connection).mapValues(\.id) == [rowids[1]: "a2"])
        #expect(try reader.records([Int64(999_999)], in: connection).isEmpty)
        #expect(try reader.records([Int64](), in: connection).isEmpty)
    }

    /// A refresh after a commit reads the touched rows by rowid, one lookup each: through the
    /// index of the query's condition, SQLite read every row of the folder to keep the touched
    /// ones, so each refresh cost as much as the folder's rows.
    @Test func matchingLooksUpEachTouchedRowByRowidEvenWhereAnIndexServesTheQuery() throws {
        let connection = try notes(inbox: 2_000, archive: 10)
        let reader = WindowReader(query: CacheQuery<Note>([.equals("folder", "inbox")], orderBy: "rank"), ascending: true)
        for rowids in [[Int64(5)], [5, 6, 7]] {
            let statement = reader.matchingStatement(rowids)
            let plan = try connection.query("EXPLAIN QUERY PLAN " + statement.sql, statement.bindings) {
                $0.string(3)
            }
            let notesStep = try #require(plan.first { $0.contains("notes") })
            #expect(notesStep.contains("INTEGER PRIMARY KEY"), "\(plan)")
            #expect(!plan.contains { $0.contains("notes_folder_rank") }, "\(plan)")
        }
    }
}
