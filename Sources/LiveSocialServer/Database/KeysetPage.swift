import LiveRepository

/// Runs a ``CacheQuery`` against a ``ServerStore`` one page at a time, with keyset paging.
///
/// Records are ordered by (sort column, id), both in the query's direction. A cursor holds
/// the last (sort value, id) a page returned; the next page starts strictly after it, so rows
/// inserted or deleted between pages never cause duplicates or skips among the others.
/// `NULL` sort values come first in ascending order and last in descending order, in every store.
struct KeysetPage<Record: CacheRecord> {
    let query: CacheQuery<Record>
    /// A further condition rows must meet (what the reader may see); nil for none.
    var filter: StoreFilter?

    init(query: CacheQuery<Record>, filter: StoreFilter? = nil) {
        self.query = query
        self.filter = filter
    }

    /// The records after `cursor` (from the start when nil), at most `limit` of them.
    func fetch(in store: any ServerStore, after cursor: PageCursor?, limit: Int) throws -> RemotePage<Record> {
        let position = cursor.map { StorePosition(sortValue: $0.sortValue, id: $0.id) }
        var rows = try store.records(query, filter: filter, after: position, limit: limit + 1)
        let hasMore = rows.count > limit
        if hasMore { rows.removeLast() }
        let next = hasMore ? rows.last.map { PageCursor(sortValue: $0.sortValue, id: $0.record.id).encoded } : nil
        return RemotePage(records: rows.map(\.record), nextCursor: next)
    }
}
