/// A window's rows in display order, without a copy: the window keeps them in anchor order,
/// which is display order reversed for a collection anchored at the end.
///
/// The accessors read a row's fields in place, so that a diff over a large window neither
/// copies rows nor retains their ids.
struct DisplayRows {
    /// The rows in anchor order.
    let rows: [RowKey]
    /// Whether display order is `rows` reversed.
    let reversed: Bool

    init(_ rows: [RowKey], reversed: Bool = false) {
        self.rows = rows
        self.reversed = reversed
    }

    var count: Int { rows.count }

    /// The position in `rows` of display index `index`.
    @inline(__always)
    private func position(_ index: Int) -> Int { reversed ? rows.count - 1 - index : index }

    /// The row at display index `index`.
    subscript(index: Int) -> RowKey { rows[position(index)] }

    /// The rowid of the row at display index `index`.
    @inline(__always)
    func rowid(_ index: Int) -> Int64 { rows[position(index)].rowid }

    /// The id of the row at display index `index`.
    @inline(__always)
    func id(_ index: Int) -> String { rows[position(index)].id }

    /// Whether the row at display index `index` is the same record as `other`'s at `otherIndex`.
    @inline(__always)
    func hasSameID(_ index: Int, as other: DisplayRows, _ otherIndex: Int) -> Bool {
        rows[position(index)].id == other.rows[other.position(otherIndex)].id
    }
}
