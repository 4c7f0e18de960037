/// The change-set computation of live collections, for the benchmarks package.
///
/// Not API: it is `@_spi(Benchmarks)` so that `Benchmarks/` can time it on its own.
@_spi(Benchmarks)
public enum CollectionDiffing {
    /// The rows of a window, in display order: each row's record `id`, which identifies it,
    /// and its rowid. Made once, before timing, as a collection keeps its rows.
    public struct Rows: Sendable {
        let rows: DisplayRows

        /// The window of `rows`, whose ids are unique.
        public init(_ rows: [(id: String, rowid: Int64)]) {
            self.rows = DisplayRows(rows.map { RowKey(value: .null, id: $0.id, rowid: $0.rowid) })
        }
    }

    /// The change from `old` to `new`; rows kept in both whose old or new rowid is in
    /// `modified` are reported as modifications. See ``CollectionChange`` for the index spaces.
    public static func change(from old: Rows, to new: Rows, modified: Set<Int64>) -> CollectionChange {
        WindowDiff.change(from: old.rows, to: new.rows, modified: modified)
    }
}
