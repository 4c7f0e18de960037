import Testing
import LiveRepository

@Suite(.timeLimit(.minutes(3))) struct RecordSchemaTests {
    /// A record with a column of every kind a schema stores.
    struct Gadget: SchemaRecord, Hashable {
        enum Mood: String, Sendable, ColumnValue { case calm, busy }

        var id: String
        var name: String
        var count: Int
        var serial: Int64
        var weight: Double
        var isOn: Bool
        var nickname: String?
        var lastSeen: Double?
        var mood: Mood
        var tags: [String]
        var labels: [String: [String]]

        static let schema = RecordSchema(
            "gadgets", indexes: [["mood", "weight"]],
            SchemaColumn("id", \Gadget.id),
            SchemaColumn("name", \Gadget.name),
            SchemaColumn("count", \Gadget.count),
            SchemaColumn("serial", \Gadget.serial),
            SchemaColumn("weight", \Gadget.weight),
            SchemaColumn("isOn", \Gadget.isOn),
            SchemaColumn("nickname", \Gadget.nickname),
            SchemaColumn("lastSeen", \Gadget.lastSeen),
            SchemaColumn("mood", \Gadget.mood),
            SchemaColumn(json: "tags", \Gadget.tags, empty: []),
            SchemaColumn(json: "labels", \Gadget.labels, empty: [:]),
            make: Gadget.init(id:name:count:serial:weight:isOn:nickname:lastSeen:mood:tags:labels:))
    }

    static let full = Gadget(
        id: "g1", name: "lamp", count: 3, serial: 1 << 40, weight: 1.25, isOn: true, nickname: "glow",
        lastSeen: 99.5, mood: .busy, tags: ["b", "a"], labels: ["z": ["1"], "a": ["2", "3"]])
    static let sparse = Gadget(
        id: "g2", name: "fan", count: 0, serial: -1, weight: 0, isOn: false, nickname: nil,
        lastSeen: nil, mood: .calm, tags: [], labels: [:])

    @Test func theTableComesFromTheColumnsInTheirOrder() {
        let table = Gadget.table
        #expect(table.name == "gadgets")
        #expect(table.columns == [
            .text("id"), .text("name"), .integer("count"), .integer("serial"), .real("weight"),
            .integer("isOn"), .text("nickname", nullable: true), .real("lastSeen", nullable: true),
            .text("mood"), .text("tags"), .text("labels"),
        ])
        #expect(table.indexes == [["mood", "weight"]])
    }

    @Test func theValuesComeInTheTablesOrder() {
        #expect(Self.full.columnValues == [
            .text("g1"), .text("lamp"), .integer(3), .integer(1 << 40), .real(1.25), .integer(1),
            .text("glow"), .real(99.5), .text("busy"), .text(#"["b","a"]"#), .text(#"{"a":["2","3"],"z":["1"]}"#),
        ])
        #expect(Self.sparse.columnValues == [
            .text("g2"), .text("fan"), .integer(0), .integer(-1), .real(0), .integer(0),
            .null, .null, .text("calm"), .text("[]"), .text("{}"),
        ])
    }

    @Test func aRecordWrittenWithItsValuesReadsBackEqual() throws {
        let db = try connection()
        for gadget in [Self.full, Self.sparse] { try insert(gadget, into: db) }
        let read = try db.query("SELECT \(Gadget.table.columnList) FROM gadgets ORDER BY id") { try Gadget(row: $0) }
        #expect(read == [Self.full, Self.sparse])
    }

    @Test func anUnknownCaseIsAMismatchThatNamesTheColumn() throws {
        let db = try connection()
        try insert(Self.full, into: db)
        try db.execute("UPDATE gadgets SET mood = 'asleep'")
        #expect {
            _ = try db.query("SELECT \(Gadget.table.columnList) FROM gadgets") { try Gadget(row: $0) }
        } throws: { error in
            "\(error)".contains("unknown Mood value 'asleep' in column mood")
        }
    }

    @Test func textThatIsNotTheCollectionsJSONIsAMismatchThatNamesTheColumn() throws {
        let db = try connection()
        try insert(Self.full, into: db)
        try db.execute("UPDATE gadgets SET labels = '[1, 2]'")
        #expect {
            _ = try db.query("SELECT \(Gadget.table.columnList) FROM gadgets") { try Gadget(row: $0) }
        } throws: { error in
            "\(error)".contains("column labels does not hold")
        }
    }

    @Test func anEmptyCollectionIsReadFromEitherEmptyForm() throws {
        let db = try connection()
        try insert(Self.sparse, into: db)
        // Rows written before the schema may hold `[]` where `{}` is written now, or nothing.
        try db.execute("UPDATE gadgets SET tags = '{}', labels = ''")
        let read = try db.query("SELECT \(Gadget.table.columnList) FROM gadgets") { try Gadget(row: $0) }
        #expect(read == [Self.sparse])
    }

    private func connection() throws -> SQLiteConnection {
        let db = try SQLiteConnection(location: .inMemory)
        try db.executeScript(Gadget.table.createStatements)
        return db
    }

    private func insert(_ gadget: Gadget, into db: SQLiteConnection) throws {
        let marks = Array(repeating: "?", count: Gadget.table.columns.count).joined(separator: ", ")
        try db.execute("INSERT INTO gadgets (\(Gadget.table.columnList)) VALUES (\(marks))", gadget.columnValues)
    }
}
