/// Positions of rows by rowid: a flat open-addressing table, cheaper than a `Dictionary`
/// (no per-lookup hashing of a seed, no resizing) for the diff of a collection's window, which
/// finds a row by its rowid first and confirms it by its id.
struct RowPositions {
    private var keys: [Int64]
    /// Positions as 32-bit values: half the memory of `Int`, so large windows stay in cache.
    private var values: [Int32]
    private let mask: Int
    private let shift: UInt64
    /// Marks a free slot. A rowid can be any `Int64`, so the one equal to the marker is kept aside.
    private static let empty = Int64.min
    private var valueForEmptyKey: Int?

    /// A table with room for `count` rows.
    init(capacity count: Int) {
        var size = 16
        var bits: UInt64 = 4
        while size < count * 2 {
            size <<= 1
            bits += 1
        }
        shift = 64 - bits
        keys = [Int64](repeating: Self.empty, count: size)
        values = [Int32](repeating: 0, count: size)
        mask = size - 1
    }

    private func slot(_ key: Int64) -> Int {
        // Fibonacci hashing (the top bits of a multiplication): rowids are often consecutive,
        // and this spreads them over the table.
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Records `value` for `key`; a key stored twice keeps the last value.
    mutating func set(_ key: Int64, _ value: Int) {
        if key == Self.empty {
            valueForEmptyKey = value
            return
        }
        var index = slot(key)
        while keys[index] != Self.empty && keys[index] != key { index = (index + 1) & mask }
        keys[index] = key
        values[index] = Int32(truncatingIfNeeded: value)
    }

    /// The value stored for `key`, or nil.
    func value(for key: Int64) -> Int? {
        if key == Self.empty { return valueForEmptyKey }
        var index = slot(key)
        while true {
            let stored = keys[index]
            if stored == key { return Int(values[index]) }
            if stored == Self.empty { return nil }
            index = (index + 1) & mask
        }
    }
}
