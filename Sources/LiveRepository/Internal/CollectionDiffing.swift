/// The change-set computation of live collections, for the benchmarks package.
///
/// Not API: it is `@_spi(Benchmarks)` so that `Benchmarks/` can time it on its own.
@_spi(Benchmarks)
public enum CollectionDiffing {
    /// The change from `old` to `new` (unique rowids each); `modified` rows present in both are
    /// reported as modifications. See ``CollectionChange`` for the index spaces.
    public static func change(from old: [Int64], to new: [Int64], modified: Set<Int64>) -> CollectionChange {
        WindowDiff.change(from: old, to: new, modified: modified)
    }
}
