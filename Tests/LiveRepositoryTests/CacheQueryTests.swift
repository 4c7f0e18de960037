import TestSupport
import Testing
@testable import LiveRepository

@Suite(.timeLimit(.minutes(3))) struct CacheQueryTests {
    @Test(arguments: [true, false], [UInt64(1), 2, 3])
    func conditionAfterARowSelectsExactlyTheRowsAfterItInTheQuerysOrder(ascending: Bool, seed: UInt64) throws {
        let (connection, rows) = try KeyedRow.randomTable(seed: seed)
        let query = CacheQuery<KeyedRow>([.equals("visible", true)], orderBy: "value", ascending: ascending)
        let ordered = try KeyedRow.read(query, from: connection).map(\.id)
        #expect(ordered.count == rows.filter(\.visible).count)
        for (position, row) in rows.enumerated() where row.visible {
            var (condition, bindings) = query.whereClause
            let after = query.condition(after: row.value, id: row.id)
            condition += " AND " + after.sql
            bindings += after.bindings
            let found = try connection.query(
                "SELECT id FROM keyed WHERE \(condition) \(query.orderByClause)", bindings) { $0.string(0) }
            let index = try #require(ordered.firstIndex(of: row.id), "row \(position) of seed \(seed)")
            #expect(found == Array(ordered[(index + 1)...]), "after \(row.value) / \(row.id), seed \(seed)")
        }
    }

    @Test func reversedFlipsOnlyTheDirection() throws {
        let (connection, _) = try KeyedRow.randomTable(seed: 9)
        let query = CacheQuery<KeyedRow>([.equals("visible", true)], orderBy: "value", ascending: true)
        #expect(query.reversed.ascending == false)
        #expect(query.reversed.predicates == query.predicates)
        #expect(query.reversed.reversed == query)
        let forward = try KeyedRow.read(query, from: connection).map(\.id)
        let backward = try KeyedRow.read(query.reversed, from: connection).map(\.id)
        #expect(backward == forward.reversed())
    }

    @Test func clausesReadAsDocumented() {
        let query = CacheQuery<Note>([.equals("folder", "inbox"), .isNull("body")], orderBy: "rank", ascending: false)
        #expect(query.orderByClause == "ORDER BY rank DESC, id DESC")
        #expect(query.whereClause.sql == "folder = ? AND body IS NULL")
        #expect(query.whereClause.bindings == ["inbox"])
        let everything = CacheQuery<Note>(orderBy: "rank")
        #expect(everything.whereClause.sql == "1")
        #expect(everything.whereClause.bindings.isEmpty)
        #expect(everything.orderByClause == "ORDER BY rank ASC, id ASC")
    }

    @Test func readingByIDAndByQueryThroughAConnection() throws {
        let connection = try SQLiteConnection(location: .inMemory)
        try connection.executeScript(Note.table.createStatements)
        for note in Note.numbered(5) {
            try connection.execute("INSERT INTO notes VALUES (?, ?, ?, ?, ?)", note.columnValues)
        }
        #expect(try Note.read(id: "n3", from: connection) == Note.numbered(5)[2])
        #expect(try Note.read(id: "missing", from: connection) == nil)
        let newest = CacheQuery<Note>(orderBy: "rank", ascending: false)
        #expect(try Note.read(newest, limit: 2, from: connection).map(\.id) == ["n5", "n4"])
        #expect(try Note.read(newest, limit: 0, from: connection).isEmpty)
        #expect(try Note.read(newest, from: connection).count == 5)
    }
}
