import BenchmarkSupport

/// Two snapshots of a window for scenario 4: `old` of unique rowids in display order, and `new`
/// after seeded random changes, a quarter each deletions, insertions, moves and modifications.
struct DiffInput {
    var old: [Int64]
    var new: [Int64]
    var modified: Set<Int64>

    init(rows: Int, changes: Int, seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var next: Int64 = 0
        old = (0..<rows).map { _ in
            next += 1 + Int64(random.next() % 3)
            return next
        }
        new = old
        modified = []
        for change in 0..<changes {
            let index = Int(random.next() % UInt64(new.count))
            switch change % 4 {
            case 0:
                new.remove(at: index)
            case 1:
                next += 1
                new.insert(next, at: index)
            case 2:
                let row = new.remove(at: index)
                new.insert(row, at: Int(random.next() % UInt64(new.count + 1)))
            default:
                modified.insert(new[index])
            }
        }
    }
}
