import Foundation

extension CacheTransaction {
    /// What the writes queued after `mark` changed in `table`: the transactions committed since,
    /// and this transaction's writes so far (which may include some queued before the mark).
    ///
    /// `isWholeTable` says that one of them changed the table in a way not tracked row by row
    /// (raw SQL, a rebuilt cache): any row may then be new, and `ids` holds only the rows that were
    /// tracked.
    package func changes(in table: String, since mark: WriteMark) -> TableChange {
        var changed = mark.committed(in: table) ?? TableChange()
        if let own = change[table] { changed.formUnion(own) }
        if currentWholeTables.contains(table) { changed.isWholeTable = true }
        for row in current where row.table == table { changed.ids.insert(row.id) }
        return changed
    }

    /// Stores a server page of `query` whose request went out after `mark`, and deletes the
    /// cached records of the page's range that the server did not return (see
    /// ``deleteStale(_:after:through:keeping:)``: local changes the server has not seen are kept).
    ///
    /// The records written since the mark are as new as the page or newer (a sent message's
    /// server copy stored after the server read the page, a real-time event), whether the page's
    /// observers have heard of them yet or not: the page neither overwrites nor deletes them.
    /// When the table changed since the mark in a way not tracked row by row, any row may be new,
    /// and the page deletes nothing.
    ///
    /// - Parameters:
    ///   - records: the records the page returned.
    ///   - query: the list the page belongs to, in the order the page was read.
    ///   - start: the (sort value, id) the page started after, or nil for a first page.
    ///   - end: the (sort value, id) where the page's range ends, or nil when it reaches the last.
    ///   - provesRange: false when the page says nothing about its range (an empty page that is
    ///     not the last, a page of which nothing is kept): it then deletes nothing.
    ///   - mark: taken before the page's request went out.
    ///   - store: writes the records the page may replace; nil upserts them.
    package func storeServerPage<Record: CacheRecord>(
        _ records: [Record], of query: CacheQuery<Record>,
        after start: (sortValue: SQLiteValue, id: String)?, through end: (sortValue: SQLiteValue, id: String)?,
        provesRange: Bool = true, since mark: WriteMark, storing store: (([Record]) throws -> Void)? = nil
    ) throws {
        let newer = changes(in: Record.table.name, since: mark)
        if provesRange, !newer.isWholeTable {
            try deleteStale(query, after: start, through: end, keeping: records.map(\.id) + newer.ids)
        }
        let replaced = newer.ids.isEmpty ? records : records.filter { !newer.ids.contains($0.id) }
        if let store { try store(replaced) } else { try upsert(contentsOf: replaced) }
    }
}
