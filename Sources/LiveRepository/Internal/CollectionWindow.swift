/// The rows a live collection shows: a run of a query's results starting at the anchor and
/// ending at a boundary. Pure state, with no I/O, so its rules are tested on their own.
///
/// Rows are kept in anchor order (index 0 is the row nearest the anchor). The window holds
/// every matching row from the anchor up to and including `boundary`; with no boundary it
/// holds every matching row. A new row therefore enters exactly when it matches the query and
/// falls inside the boundary: with the newest end as anchor, or a window that reaches the end.
struct CollectionWindow: Sendable {
    /// Where a window ends.
    enum Boundary: Sendable, Hashable {
        /// Through the row with this key.
        case through(RowKey)
        /// Through the last matching row.
        case end
    }

    /// Whether anchor order is ascending in the sort column.
    let ascending: Bool
    private(set) var rows: [RowKey] = []
    private(set) var boundary: Boundary

    init(ascending: Bool, boundary: Boundary = .end) {
        self.ascending = ascending
        self.boundary = boundary
    }

    var count: Int { rows.count }

    /// Whether a row with `key` belongs inside the boundary.
    func contains(_ key: RowKey) -> Bool {
        switch boundary {
        case .end: true
        case .through(let last): !last.precedes(key, ascending: ascending)
        }
    }

    /// Replaces every row, as a full read returns them (already in anchor order, inside the boundary).
    mutating func replace(rows newRows: [RowKey], boundary newBoundary: Boundary) {
        rows = newRows
        boundary = newBoundary
    }

    /// Applies a change to some rows: every row whose rowid is in `touched` is dropped, then
    /// `matches` (the touched rows that still match the query, in any order) are merged in
    /// where they belong, if inside the boundary. Up to ``fewTouched`` touched rows (a commit's
    /// usual size) take `applyFew`: one pass of comparisons and a binary search per row. More
    /// take a merge through the whole window, linear in it plus `m log m`. Returns the rows of
    /// `matches` that went in (those inside the boundary), in anchor order.
    @discardableResult
    mutating func apply(touched: Set<Int64>, matches: [RowKey]) -> [RowKey] {
        let incoming = matches.filter(contains).sorted { $0.precedes($1, ascending: ascending) }
        if touched.count <= Self.fewTouched {
            applyFew(touched: Array(touched), incoming: incoming)
            return incoming
        }
        var kept = rows
        if !touched.isEmpty { kept.removeAll { touched.contains($0.rowid) } }
        guard !incoming.isEmpty else { rows = kept; return incoming }
        var merged: [RowKey] = []
        merged.reserveCapacity(kept.count + incoming.count)
        var i = 0, j = 0
        while i < kept.count, j < incoming.count {
            if incoming[j].precedes(kept[i], ascending: ascending) {
                merged.append(incoming[j]); j += 1
            } else {
                merged.append(kept[i]); i += 1
            }
        }
        merged.append(contentsOf: kept[i...])
        merged.append(contentsOf: incoming[j...])
        rows = merged
        return incoming
    }

    /// At most this many touched rows are found by comparing rowids rather than hashing them,
    /// and the incoming rows placed by binary search rather than a merge of the whole window.
    static let fewTouched = 8

    /// `apply(touched:matches:)` for a few touched rows: one pass comparing rowids finds those to
    /// drop (no hashing), and each incoming row goes in at the place a binary search finds.
    private mutating func applyFew(touched: [Int64], incoming: [RowKey]) {
        if !touched.isEmpty {
            var found: [Int] = []
            for index in rows.indices where touched.contains(rows[index].rowid) { found.append(index) }
            for index in found.reversed() { rows.remove(at: index) }
        }
        for row in incoming {
            var low = 0, high = rows.count
            while low < high {
                let middle = (low + high) / 2
                if row.precedes(rows[middle], ascending: ascending) { high = middle } else { low = middle + 1 }
            }
            rows.insert(row, at: low)
        }
    }

    /// Adds rows that lie beyond the boundary (read in anchor order) and moves the boundary.
    mutating func extend(with beyond: [RowKey], boundary newBoundary: Boundary) {
        rows.append(contentsOf: beyond)
        boundary = newBoundary
    }

    /// The boundary after a later server page (not the first) that ends at `key` and has more
    /// after it: the further of `key` and the window's last row, so such a page never hides rows
    /// already shown.
    func boundary(reaching key: RowKey) -> Boundary {
        let last: RowKey? = switch boundary {
        case .end: rows.last
        case .through(let through): through
        }
        guard let last, key.precedes(last, ascending: ascending) else { return .through(key) }
        return .through(last)
    }
}
