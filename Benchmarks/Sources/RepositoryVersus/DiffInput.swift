import BenchmarkSupport

/// Two snapshots of a window for scenario 4: `old` of unique rows in display order, and `new`
/// after seeded random changes, a quarter each deletions, insertions, moves and modifications.
/// Rows have 24-hex-digit ids, as the messages of the other scenarios do, and growing rowids;
/// `modified` holds the rowids of the modified rows.
struct DiffInput {
    typealias Row = (id: String, rowid: Int64)
    var old: [Row]
    var new: [Row]
    var modified: Set<Int64>

    init(rows: Int, changes: Int, seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var next: Int64 = 0
        func row() -> Row {
            next += 1 + Int64(random.next() % 3)
            let hex = String(UInt64(next) &* 0x9E37_79B9_7F4A_7C15, radix: 16)
            return ("65f1c0de" + String(repeating: "0", count: 16 - hex.count) + hex, next)
        }
        old = (0..<rows).map { _ in row() }
        new = old
        modified = []
        for change in 0..<changes {
            let index = Int(random.next() % UInt64(new.count))
            switch change % 4 {
            case 0:
                new.remove(at: index)
            case 1:
                new.insert(row(), at: index)
            case 2:
                let moved = new.remove(at: index)
                new.insert(moved, at: Int(random.next() % UInt64(new.count + 1)))
            default:
                modified.insert(new[index].rowid)
            }
        }
    }
}
