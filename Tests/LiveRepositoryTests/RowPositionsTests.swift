@testable import LiveRepository
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct RowPositionsTests {
    @Test func findsEveryStoredRowAndNothingElse() {
        var random = SeededRandom(seed: 7)
        let keys = (0..<5_000).map { _ in Int64(bitPattern: random.next()) } + [0, 1, 2, -1, Int64.max, Int64.min]
        var table = RowPositions(capacity: keys.count)
        var expected: [Int64: Int] = [:]
        for (position, key) in keys.enumerated() {
            table.set(key, position)
            expected[key] = position
        }
        for (key, position) in expected {
            #expect(table.value(for: key) == position)
        }
        for _ in 0..<5_000 {
            let probe = Int64(bitPattern: random.next())
            #expect(table.value(for: probe) == expected[probe])
        }
    }

    @Test func consecutiveRowidsAndTheMarkerValue() {
        var table = RowPositions(capacity: 1_000)
        for rowid in Int64(1)...1_000 { table.set(rowid, Int(rowid) * 2) }
        #expect(table.value(for: 500) == 1_000)
        #expect(table.value(for: 1_001) == nil)
        #expect(table.value(for: .min) == nil)
        table.set(.min, 3)
        table.set(500, 7)
        #expect(table.value(for: .min) == 3)
        #expect(table.value(for: 500) == 7)
    }
}
