@testable import LiveRepository
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct CollectionWindowTests {
    func key(_ value: SQLiteValue, _ id: String, _ rowid: Int64 = 0) -> RowKey { RowKey(value: value, id: id, rowid: rowid) }

    // MARK: Property test against SQLite

    /// A random table of keyed rows; random changes applied with `apply(touched:matches:)` give
    /// the same rows as re-reading the window through its boundary with SQL. Steps of 1-4
    /// changes take the path for a few touched rows (comparison, binary search); steps of 9-20
    /// (`many`), mostly the merge through the whole window.
    @Test(arguments: [UInt64(21), 22, 23, 24, 25, 26], [false, true])
    func applyingChangesMatchesAFullRead(seed: UInt64, many: Bool) throws {
        for (queryAscending, anchorAscending) in [(true, true), (true, false), (false, false), (false, true)] {
            var random = SeededRandom(seed: seed &* 31 &+ (queryAscending ? 1 : 0) &+ (anchorAscending ? 2 : 0))
            let (connection, rows) = try KeyedRow.randomTable(&random, count: 60, visiblePercent: 80)
            var ids = rows.map(\.id)
            let query = CacheQuery<KeyedRow>([.equals("visible", true)], orderBy: "value", ascending: queryAscending)
            let reader = WindowReader(query: query, ascending: anchorAscending)
            var window = CollectionWindow(ascending: anchorAscending)
            let all = try reader.rows(through: .end, in: connection)
            let boundary: CollectionWindow.Boundary = all.isEmpty || random.chance(25) ? .end : .through(all[random.below(all.count)])
            window.replace(rows: try reader.rows(through: boundary, in: connection), boundary: boundary)
            var nextIndex = 60
            for step in 0..<60 {
                var touched: Set<Int64> = []
                let changes = many ? CollectionWindow.fewTouched + 1 + random.below(12) : 1 + random.below(4)
                for _ in 0..<changes {
                    let rowid: Int64?
                    switch random.below(4) {
                    case 0:
                        let row = KeyedRow(id: KeyedRow.randomID(&random, nextIndex), value: KeyedRow.randomValue(&random),
                                           visible: random.chance(80))
                        nextIndex += 1
                        ids.append(row.id)
                        rowid = try connection.queryFirst("INSERT INTO keyed (id, value, visible) VALUES (?, ?, ?) RETURNING rowid",
                                                          row.columnValues) { $0.int64(0) }
                    case 1:
                        rowid = try connection.queryFirst("DELETE FROM keyed WHERE id = ? RETURNING rowid",
                                                          [.text(random.pick(ids))]) { $0.int64(0) }
                    case 2:
                        rowid = try connection.queryFirst("UPDATE keyed SET visible = NOT visible WHERE id = ? RETURNING rowid",
                                                          [.text(random.pick(ids))]) { $0.int64(0) }
                    default:
                        rowid = try connection.queryFirst("UPDATE keyed SET value = ? WHERE id = ? RETURNING rowid",
                                                          [KeyedRow.randomValue(&random), .text(random.pick(ids))]) { $0.int64(0) }
                    }
                    if let rowid { touched.insert(rowid) }
                }
                if random.chance(10) { touched.insert(999_999) }  // a rowid that does not exist
                window.apply(touched: touched, matches: try reader.matching(touched, in: connection))
                let expected = try reader.rows(through: window.boundary, in: connection)
                #expect(window.rows == expected,
                        "seed \(seed) many \(many) query \(queryAscending) anchor \(anchorAscending) step \(step)")
                #expect(window.boundary == boundary)
                if window.rows != expected { break }
            }
        }
    }

    // MARK: Rules

    @Test func containsRespectsTheBoundaryInBothDirections() {
        var ascending = CollectionWindow(ascending: true)
        #expect(ascending.contains(key(.integer(1_000), "z")))
        ascending.replace(rows: [key(1, "a", 1), key(2, "b", 2)], boundary: .through(key(2, "b", 2)))
        #expect(ascending.contains(key(.null, "zz")))
        #expect(ascending.contains(key(2, "a")))
        #expect(ascending.contains(key(2, "b")))
        #expect(!ascending.contains(key(2, "c")))
        #expect(!ascending.contains(key(3, "a")))
        #expect(!ascending.contains(key("text", "a")))

        var descending = CollectionWindow(ascending: false)
        descending.replace(rows: [key(9, "a", 1), key(5, "b", 2)], boundary: .through(key(5, "b", 2)))
        #expect(descending.contains(key(6, "a")))
        #expect(descending.contains(key(5, "c")))
        #expect(descending.contains(key(5, "b")))
        #expect(!descending.contains(key(5, "a")))
        #expect(!descending.contains(key(4, "z")))
        #expect(!descending.contains(key(.null, "z")))
        #expect(descending.contains(key("text", "a")))
    }

    @Test func applyDropsTouchedRowsAndMergesMatchesInsideTheBoundary() {
        var window = CollectionWindow(ascending: true)
        window.replace(rows: [key(1, "a", 1), key(3, "c", 3), key(5, "e", 5)], boundary: .through(key(5, "e", 5)))
        // Row 3 moves to 6 (beyond the boundary: leaves), row 7 arrives at 2, row 8 arrives beyond.
        window.apply(touched: [3, 7, 8], matches: [key(6, "c", 3), key(9, "h", 8), key(2, "g", 7)])
        #expect(window.rows == [key(1, "a", 1), key(2, "g", 7), key(5, "e", 5)])
        #expect(window.boundary == .through(key(5, "e", 5)))
        // A touched row that no longer matches leaves; an untouched row stays even if absent from matches.
        window.apply(touched: [1], matches: [])
        #expect(window.rows == [key(2, "g", 7), key(5, "e", 5)])
        // With no touched rows and no matches nothing changes.
        window.apply(touched: [], matches: [])
        #expect(window.rows == [key(2, "g", 7), key(5, "e", 5)])
    }

    @Test func applyOnAWindowThroughTheEndTakesEverything() {
        var window = CollectionWindow(ascending: false)
        window.apply(touched: [1, 2], matches: [key(1, "a", 1), key(.null, "n", 2)])
        #expect(window.rows == [key(1, "a", 1), key(.null, "n", 2)])
        window.apply(touched: [3], matches: [key("t", "t", 3)])
        #expect(window.rows.first == key("t", "t", 3))
        #expect(window.count == 3)
    }

    @Test func extendAppendsAndMovesTheBoundary() {
        var window = CollectionWindow(ascending: true)
        window.replace(rows: [key(1, "a", 1)], boundary: .through(key(1, "a", 1)))
        window.extend(with: [key(2, "b", 2), key(3, "c", 3)], boundary: .through(key(3, "c", 3)))
        #expect(window.rows.map(\.rowid) == [1, 2, 3])
        #expect(window.boundary == .through(key(3, "c", 3)))
        window.extend(with: [], boundary: .end)
        #expect(window.boundary == .end)
        #expect(window.contains(key(100, "z")))
    }

    @Test func boundaryReachingAKeyNeverHidesShownRows() {
        var window = CollectionWindow(ascending: true)
        // An empty window through the end: the key itself.
        #expect(window.boundary(reaching: key(5, "e")) == .through(key(5, "e")))
        window.replace(rows: [key(1, "a", 1), key(4, "d", 4)], boundary: .through(key(4, "d", 4)))
        #expect(window.boundary(reaching: key(6, "f")) == .through(key(6, "f")))
        #expect(window.boundary(reaching: key(2, "b")) == .through(key(4, "d", 4)))
        // A window through the end: measured from its last row.
        window.replace(rows: [key(1, "a", 1), key(8, "h", 8)], boundary: .end)
        #expect(window.boundary(reaching: key(3, "c")) == .through(key(8, "h", 8)))
        #expect(window.boundary(reaching: key(9, "i")) == .through(key(9, "i")))

        var descending = CollectionWindow(ascending: false)
        descending.replace(rows: [key(9, "i", 9), key(5, "e", 5)], boundary: .through(key(5, "e", 5)))
        #expect(descending.boundary(reaching: key(3, "c")) == .through(key(3, "c")))
        #expect(descending.boundary(reaching: key(7, "g")) == .through(key(5, "e", 5)))
    }
}
