/// A row's place in a query's order: its sort value, then its `id`, plus its rowid to find it.
struct RowKey: Sendable, Hashable {
    var value: SQLiteValue
    var id: String
    var rowid: Int64

    /// Whether `self` comes before `other` in an order that is `ascending` or not, as SQLite
    /// sorts: `NULL` first, then numbers, then text (byte order), then blobs; ties broken by `id`.
    func precedes(_ other: RowKey, ascending: Bool) -> Bool {
        let order = Self.compare(value, other.value)
        let ordered = order != 0 ? order : Self.compareBytes(id.utf8, other.id.utf8)
        return ascending ? ordered < 0 : ordered > 0
    }

    static func compare(_ lhs: SQLiteValue, _ rhs: SQLiteValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer(let a), .real(let b)): return compareExactly(a, b)
        case (.real(let a), .integer(let b)): return -compareExactly(b, a)
        case (.real(let a), .real(let b)): return compareNumbers(a, b)
        case (.integer, _), (.real, _): return -1
        case (_, .integer), (_, .real): return 1
        case (.text(let a), .text(let b)): return compareBytes(a.utf8, b.utf8)
        case (.text, .blob): return -1
        case (.blob, .text): return 1
        case (.blob(let a), .blob(let b)): return compareBytes(a, b)
        }
    }

    private static func compareNumbers(_ a: Double, _ b: Double) -> Int { a < b ? -1 : (a == b ? 0 : 1) }

    /// Compares an integer with a real exactly, as SQLite does: converting the integer to a
    /// `Double` would round integers beyond 2^53 and tie values that SQLite orders.
    private static func compareExactly(_ a: Int64, _ b: Double) -> Int {
        if b.isNaN { return 1 }  // SQLite stores NaN as NULL; never reached with stored values.
        if b < -9.223372036854775808e18 { return 1 }
        if b >= 9.223372036854775808e18 { return -1 }
        let whole = Int64(b.rounded(.down))  // exact: |b| < 2^63
        if a != whole { return a < whole ? -1 : 1 }
        return Double(whole) < b ? -1 : 0
    }

    private static func compareBytes<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> Int
    where A.Element == UInt8, B.Element == UInt8 {
        var left = a.makeIterator()
        var right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }
}
