/// Computes the ``CollectionChange`` between two snapshots of a live collection's window.
///
/// Rows are identified by their record's `id`, unique within each snapshot, never by their
/// rowid: SQLite hands a deleted row's rowid to the next insert when it was the largest, so one
/// rowid can stand for a row that left and a different row that arrived in the same write. The
/// diff keeps the largest set of rows that appear in both snapshots in the same relative order
/// (the longest increasing subsequence of their new positions, taken in old order); every other
/// common row moved and is reported as a deletion plus an insertion. Rows only in the old
/// snapshot are deletions, rows only in the new one insertions, and kept rows that a write
/// touched (their old or new rowid is in `modified`) are modifications at their old index.
///
/// Cost, for `n` rows and `k` rows between the first and last difference:
/// - the common prefix and suffix are skipped in O(n) comparisons of ids, without hashing or
///   copying (a kept row shares its id's storage with its old copy, so most comparisons are one
///   pointer comparison);
/// - the middle costs one insertion per new row in a flat table of rowids (see ``RowPositions``),
///   and a lookup only for an old row that does not directly follow the previous common row in
///   both snapshots; ids are hashed only for the rows not found by rowid (rows that left,
///   arrived, or came back under a new rowid);
/// - only when some row moved, the subsequence costs O(k) plus a binary search per break in
///   the runs of consecutive positions: O(k log k) at worst, for a shuffle;
/// - marking modifications costs a bit test per kept row, and a set lookup only for the few
///   rows that pass it (see ``ModifiedFilter``); nothing when `modified` is empty.
enum WindowDiff {
    /// The change that turns `old` into `new`.
    ///
    /// - Parameters:
    ///   - old: the rows of the previous snapshot, in display order, with unique ids.
    ///   - new: the rows of the current snapshot, in display order, with unique ids.
    ///   - modified: rowids that a write touched; a row kept in both snapshots is modified when
    ///     its old or its new rowid is among them.
    static func change(from old: DisplayRows, to new: DisplayRows, modified: Set<Int64>) -> CollectionChange {
        // The common prefix and suffix: rows that certainly stay where they are.
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old.hasSameID(prefix, as: new, prefix) { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old.hasSameID(old.count - 1 - suffix, as: new, new.count - 1 - suffix) {
            suffix += 1
        }
        let oldEnd = old.count - suffix
        let newEnd = new.count - suffix

        var deletions: [Int] = []
        var insertions: [Int] = []
        var modifications: [Int] = []
        let filter = modified.isEmpty ? nil : ModifiedFilter(modified)

        if let filter {
            for index in 0..<prefix where filter.contains(old.rowid(index), new.rowid(index)) {
                modifications.append(index)
            }
        }

        if prefix == oldEnd {
            // Only insertions between prefix and suffix.
            insertions.append(contentsOf: prefix..<newEnd)
        } else if prefix == newEnd {
            // Only deletions between prefix and suffix.
            deletions.append(contentsOf: prefix..<oldEnd)
        } else {
            diffMiddle(
                old: old, new: new, prefix: prefix, oldEnd: oldEnd, newEnd: newEnd,
                modified: filter,
                deletions: &deletions, insertions: &insertions, modifications: &modifications)
        }

        if let filter {
            let shift = new.count - old.count
            for index in oldEnd..<old.count where filter.contains(old.rowid(index), new.rowid(index + shift)) {
                modifications.append(index)
            }
        }
        return CollectionChange(deletions: deletions, insertions: insertions, modifications: modifications)
    }

    /// Diffs `old[prefix..<oldEnd]` against `new[prefix..<newEnd]`, both non-empty, appending
    /// absolute indexes to the three lists in ascending order.
    private static func diffMiddle(
        old: DisplayRows, new: DisplayRows, prefix: Int, oldEnd: Int, newEnd: Int,
        modified: ModifiedFilter?,
        deletions: inout [Int], insertions: inout [Int], modifications: inout [Int]
    ) {
        let oldCount = oldEnd - prefix
        let newCount = newEnd - prefix

        // Where each new row sits (relative to the prefix), by rowid: most rows keep their
        // rowid, and a flat rowid table is much cheaper than hashing ids.
        var byRowid = RowPositions(capacity: newCount)
        for offset in 0..<newCount {
            byRowid.set(new.rowid(prefix + offset), offset)
        }

        // For each old row: its relative new position, or -1 when it left. A row that follows
        // the previous common row in both windows needs no lookup; another is found by its
        // rowid, and counts only if the ids agree (the rowid may now hold another record).
        var target = [Int](repeating: -1, count: oldCount)
        var claimed = [Bool](repeating: false, count: newCount)
        var unmatched = 0
        var last = -1
        for offset in 0..<oldCount {
            var position = -1
            if last + 1 < newCount, last >= 0, old.hasSameID(prefix + offset, as: new, prefix + last + 1) {
                position = last + 1
            } else if let found = byRowid.value(for: old.rowid(prefix + offset)),
                old.hasSameID(prefix + offset, as: new, prefix + found)
            {
                position = found
            }
            guard position >= 0 else {
                unmatched += 1
                continue
            }
            target[offset] = position
            claimed[position] = true
            last = position
        }

        // Old rows not found by rowid left, or came back under a new rowid (deleted and inserted
        // again in one write): look those up by id among the new rows nothing claimed.
        if unmatched > 0 {
            var byID: [String: Int] = [:]
            for offset in 0..<newCount where !claimed[offset] {
                byID[new.id(prefix + offset)] = offset
            }
            if !byID.isEmpty {
                for offset in 0..<oldCount where target[offset] < 0 {
                    if let found = byID[old.id(prefix + offset)] { target[offset] = found }
                }
            }
        }

        // Whether the common rows are already in increasing order, which means nothing moved.
        var inOrder = true
        last = -1
        for position in target where position >= 0 {
            if position <= last {
                inOrder = false
                break
            }
            last = position
        }
        if !inOrder {
            dropRowsOutsideLongestIncreasingRun(&target)
        }

        // The rows of the new range that a kept old row fills; the rest are insertions.
        var filled = [Bool](repeating: false, count: newCount)
        for offset in 0..<oldCount {
            let position = target[offset]
            if position >= 0 {
                filled[position] = true
                if let modified, modified.contains(old.rowid(prefix + offset), new.rowid(prefix + position)) {
                    modifications.append(prefix + offset)
                }
            } else {
                deletions.append(prefix + offset)
            }
        }
        for offset in 0..<newCount where !filled[offset] {
            insertions.append(prefix + offset)
        }
    }

    /// Keeps (as non-negative values) only one longest strictly increasing subsequence of the
    /// non-negative values of `target`, setting every other value to -1.
    ///
    /// O(m log m) in general; O(m) plus a binary search per break when the values mostly come
    /// in runs of consecutive positions, as they do when few rows moved.
    private static func dropRowsOutsideLongestIncreasingRun(_ target: inout [Int]) {
        let count = target.count
        // tails[length - 1]: the index in `target` of the smallest last value of an increasing
        // run of that length found so far. previous[i]: the index before i in i's run.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: count)
        var lastLength = 0  // where the previous value went: tails[lastLength - 1]
        for index in 0..<count {
            let value = target[index]
            guard value >= 0 else { continue }
            // The first run length whose last value is >= value. The value usually extends the
            // run the previous value extended: check that slot before searching.
            var low = 0
            var high = tails.count
            if lastLength > 0, target[tails[lastLength - 1]] < value,
                lastLength == tails.count || target[tails[lastLength]] >= value
            {
                low = lastLength
                high = lastLength
            }
            while low < high {
                let middle = (low + high) / 2
                if target[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            previous[index] = low > 0 ? tails[low - 1] : -1
            if low == tails.count { tails.append(index) } else { tails[low] = index }
            lastLength = low + 1
        }
        // Mark the run by flipping its values below -1 (value v becomes -2 - v), clear the rest,
        // then flip the run back.
        var index = tails.last ?? -1
        while index >= 0 {
            target[index] = -2 - target[index]
            index = previous[index]
        }
        for index in 0..<count {
            let value = target[index]
            target[index] = value <= -2 ? -2 - value : -1
        }
    }

    /// The touched rowids, with a small bit filter in front of the set so that the many rows
    /// that are not touched rarely pay for hashing.
    ///
    /// Each id sets one bit, chosen by a multiplicative hash, in a table of about 64 bits per
    /// id (at most 4 Mibit, 512 KiB); a clear bit proves the id is not modified. About 1.5% of the
    /// other ids share a bit with a modified one and fall through to the set.
    struct ModifiedFilter {
        private let ids: Set<Int64>
        private var bits: [UInt64]
        private let shift: UInt64

        init(_ ids: Set<Int64>) {
            self.ids = ids
            var logBits: UInt64 = 6
            while logBits < 22, (1 << logBits) < ids.count * 64 { logBits += 1 }
            shift = 64 - logBits
            bits = [UInt64](repeating: 0, count: 1 << (logBits - 6))
            for id in ids {
                let bit = Self.bit(of: id, shift: shift)
                bits[bit >> 6] |= 1 << UInt64(bit & 63)
            }
        }

        func contains(_ id: Int64) -> Bool {
            let bit = Self.bit(of: id, shift: shift)
            return bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0 && ids.contains(id)
        }

        /// Whether a row kept with rowid `old` in the old snapshot and `new` in the new one was
        /// touched, under either of them.
        func contains(_ old: Int64, _ new: Int64) -> Bool {
            contains(old) || (new != old && contains(new))
        }

        private static func bit(of id: Int64, shift: UInt64) -> Int {
            Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        }
    }
}
