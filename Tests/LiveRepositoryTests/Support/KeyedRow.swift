import TestSupport
@testable import LiveRepository

/// A record whose sort column holds any SQLite value (a `BLOB` column has no type affinity, so
/// integers, reals, text, blobs and `NULL` are stored as given), for the ordering tests.
struct KeyedRow: CacheRecord {
    var id: String
    var value: SQLiteValue
    var visible: Bool

    static let table = RecordTable(
        name: "keyed", columns: [.text("id"), .blob("value", nullable: true), .integer("visible")])

    init(id: String, value: SQLiteValue, visible: Bool = true) {
        self.id = id
        self.value = value
        self.visible = visible
    }

    init(row: SQLiteRow) {
        id = row.string(0)
        value = row[1]
        visible = row.bool(2)
    }

    var columnValues: [SQLiteValue] { [.text(id), value, .bool(visible)] }

    /// A random sort value: `NULL`, small integers, reals that tie with integers and not, text
    /// (with non-ASCII), blobs.
    static func randomValue(_ random: inout SeededRandom) -> SQLiteValue {
        switch random.below(6) {
        case 0: .null
        case 1: .integer(Int64(random.below(21) - 10))
        case 2: .real(Double(random.below(81) - 40) / 4)
        case 3: .text(random.pick(["", "a", "A", "b", "ab", "é", "z", "Z", "ä", "aa", "日本", "😀", "0", "10", "9"]))
        case 4: .blob(random.pick([[], [0], [1], [0, 1], [255], [1, 0]]))
        default: .integer(Int64(random.below(5)))
        }
    }

    static func randomID(_ random: inout SeededRandom, _ index: Int) -> String {
        random.pick(["a", "b", "B", "é", "x-", ""]) + "\(index)"
    }

    /// A new in-memory database with the `keyed` table holding `count` rows with random ids and
    /// sort values, each visible with a chance of `visiblePercent`, drawn from `random` (the
    /// id, the value, then the visibility of each row in turn); the rows in insertion order.
    static func randomTable(_ random: inout SeededRandom, count: Int,
                            visiblePercent: Int) throws -> (SQLiteConnection, [KeyedRow]) {
        let connection = try SQLiteConnection(location: .inMemory)
        try connection.executeScript(table.createStatements)
        let rows = (0..<count).map {
            KeyedRow(id: randomID(&random, $0), value: randomValue(&random), visible: random.chance(visiblePercent))
        }
        for row in rows {
            try connection.execute("INSERT INTO keyed VALUES (?, ?, ?)", row.columnValues)
        }
        return (connection, rows)
    }

    /// `randomTable(_:count:visiblePercent:)` with a generator seeded with `seed`.
    static func randomTable(seed: UInt64, count: Int = 60,
                            visiblePercent: Int = 70) throws -> (SQLiteConnection, [KeyedRow]) {
        var random = SeededRandom(seed: seed)
        return try randomTable(&random, count: count, visiblePercent: visiblePercent)
    }
}
