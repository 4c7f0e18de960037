import LiveRepository

/// A record with a column of every kind ``ColumnReader`` and ``ColumnWriter`` handle, for their
/// tests.
struct Gadget: CacheRecord, Hashable {
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

    static let table = RecordTable(
        name: "gadgets",
        columns: [
            .text("id"), .text("name"), .integer("count"), .integer("serial"), .real("weight"),
            .integer("isOn"), .text("nickname", nullable: true), .real("lastSeen", nullable: true),
            .text("mood"), .text("tags"), .text("labels"),
        ],
        indexes: [["mood", "weight"]])

    init(
        id: String, name: String, count: Int, serial: Int64, weight: Double, isOn: Bool, nickname: String?,
        lastSeen: Double?, mood: Mood, tags: [String], labels: [String: [String]]
    ) {
        self.id = id
        self.name = name
        self.count = count
        self.serial = serial
        self.weight = weight
        self.isOn = isOn
        self.nickname = nickname
        self.lastSeen = lastSeen
        self.mood = mood
        self.tags = tags
        self.labels = labels
    }

    init(row: SQLiteRow) throws {
        var columns = ColumnReader(row, of: Self.table)
        id = try columns.next()
        name = try columns.next()
        count = try columns.next()
        serial = try columns.next()
        weight = try columns.next()
        isOn = try columns.next()
        nickname = try columns.next()
        lastSeen = try columns.next()
        mood = try columns.next()
        tags = try columns.nextJSON(empty: [])
        labels = try columns.nextJSON(empty: [:])
        columns.finish()
    }

    var columnValues: [SQLiteValue] {
        var values = ColumnWriter(Self.table)
        values.append(id)
        values.append(name)
        values.append(count)
        values.append(serial)
        values.append(weight)
        values.append(isOn)
        values.append(nickname)
        values.append(lastSeen)
        values.append(mood)
        values.appendJSON(tags, empty: "[]")
        values.appendJSON(labels, empty: "{}")
        return values.finish()
    }

    static let full = Gadget(
        id: "g1", name: "lamp", count: 3, serial: 1 << 40, weight: 1.25, isOn: true, nickname: "glow",
        lastSeen: 99.5, mood: .busy, tags: ["b", "a"], labels: ["z": ["1"], "a": ["2", "3"]])
    static let sparse = Gadget(
        id: "g2", name: "fan", count: 0, serial: -1, weight: 0, isOn: false, nickname: nil,
        lastSeen: nil, mood: .calm, tags: [], labels: [:])

    /// An in-memory database with the gadgets table.
    static func database() throws -> SQLiteConnection {
        let db = try SQLiteConnection(location: .inMemory)
        try db.executeScript(table.createStatements)
        return db
    }

    /// Inserts `gadget` with its column values.
    static func insert(_ gadget: Gadget, into db: SQLiteConnection) throws {
        let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        try db.execute("INSERT INTO gadgets (\(table.columnList)) VALUES (\(marks))", gadget.columnValues)
    }

    /// Every gadget in `db`, by id.
    static func all(in db: SQLiteConnection) throws -> [Gadget] {
        try db.query("SELECT \(table.columnList) FROM gadgets ORDER BY id") { try Gadget(row: $0) }
    }
}
