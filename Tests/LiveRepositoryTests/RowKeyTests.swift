@testable import LiveRepository
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct RowKeyTests {
    /// SQLite's `ORDER BY value, id` over random values, compared with sorting by `precedes`.
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16, 17, 18])
    func orderingMatchesSQLite(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let connection = try SQLiteConnection(location: .inMemory)
        try connection.executeScript("CREATE TABLE t (id TEXT PRIMARY KEY, v)")
        var keys: [RowKey] = []
        for index in 0..<200 {
            let key = RowKey(value: KeyedRow.randomValue(&random), id: KeyedRow.randomID(&random, index), rowid: Int64(index))
            try connection.execute("INSERT INTO t (id, v) VALUES (?, ?)", [.text(key.id), key.value])
            keys.append(key)
        }
        for ascending in [true, false] {
            let direction = ascending ? "ASC" : "DESC"
            let sqlite = try connection.query("SELECT id FROM t ORDER BY v \(direction), id \(direction)") { $0.string(0) }
            let swift = keys.sorted { $0.precedes($1, ascending: ascending) }.map(\.id)
            #expect(sqlite == swift, "seed \(seed), ascending \(ascending)")
        }
    }

    @Test func precedesIsAStrictOrder() {
        var random = SeededRandom(seed: 99)
        let keys = (0..<60).map { RowKey(value: KeyedRow.randomValue(&random), id: KeyedRow.randomID(&random, $0), rowid: Int64($0)) }
        for a in keys {
            #expect(!a.precedes(a, ascending: true))
            #expect(!a.precedes(a, ascending: false))
            for b in keys where a != b {
                // Exactly one of the two precedes the other, and descending is the mirror.
                #expect(a.precedes(b, ascending: true) != b.precedes(a, ascending: true))
                #expect(a.precedes(b, ascending: true) == b.precedes(a, ascending: false))
            }
        }
    }

    @Test func typeClassesSortAsSQLiteDoes() {
        let ordered: [SQLiteValue] = [.null, .integer(-5), .real(-1.5), .integer(0), .real(0.5), .integer(1), .real(1e10),
                                      .text(""), .text("A"), .text("a"), .text("é"), .blob([]), .blob([0])]
        for (index, value) in ordered.enumerated() {
            for later in ordered[(index + 1)...] {
                #expect(RowKey.compare(value, later) < 0, "\(value) before \(later)")
                #expect(RowKey.compare(later, value) > 0)
            }
            #expect(RowKey.compare(value, value) == 0)
        }
    }

    @Test func equalNumbersOfDifferentTypesTieAndFallBackToTheID() {
        let integer = RowKey(value: .integer(2), id: "b", rowid: 1)
        let real = RowKey(value: .real(2.0), id: "a", rowid: 2)
        #expect(RowKey.compare(integer.value, real.value) == 0)
        #expect(real.precedes(integer, ascending: true))
        #expect(integer.precedes(real, ascending: false))
    }

    /// Integers beyond 2^53 are compared with reals exactly by SQLite.
    @Test func largeIntegersAgainstRealsMatchSQLite() throws {
        let connection = try SQLiteConnection(location: .inMemory)
        try connection.executeScript("CREATE TABLE t (id TEXT PRIMARY KEY, v)")
        let values: [SQLiteValue] = [
            .integer(9_007_199_254_740_993), .real(9_007_199_254_740_992), .integer(9_007_199_254_740_992),
            .integer(Int64.max), .real(9.223372036854775807e18), .integer(Int64.min), .real(-9.223372036854775808e18),
            .integer(-9_007_199_254_740_993), .real(-9_007_199_254_740_992),
        ]
        // Ids in reverse of the natural order, so that a wrong tie shows.
        let keys = values.enumerated().map { RowKey(value: $1, id: "k\(9 - $0)", rowid: Int64($0)) }
        for key in keys { try connection.execute("INSERT INTO t (id, v) VALUES (?, ?)", [.text(key.id), key.value]) }
        let sqlite = try connection.query("SELECT id FROM t ORDER BY v, id") { $0.string(0) }
        let swift = keys.sorted { $0.precedes($1, ascending: true) }.map(\.id)
        #expect(sqlite == swift)
    }
}
