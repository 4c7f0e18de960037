/// Decoding a live collection's records on demand and ahead of a reader.
extension LiveCollection {
    /// When a reader moving through the window gets near rows that are not decoded yet (in
    /// either direction), decodes them on the store's queue, so a scrolling list seldom waits.
    ///
    /// A record read this way before a write and delivered after it cannot stay stale: the
    /// store's queue is serial, so the refresh that follows the write lands later and drops it.
    func prefetchAround(_ index: Int) {
        guard !isPrefetching else { return }
        let rows = state.window.rows
        let ahead = min(rows.count, index + Self.prefetchDistance)
        let behind = max(0, index - Self.prefetchDistance)
        let range: Range<Int>
        if ahead > index + 1, decoded[rows[anchorIndex(ahead - 1, count: rows.count)].rowid] == nil {
            range = index..<min(rows.count, index + 4 * Self.prefetchDistance)
        } else if behind < index, decoded[rows[anchorIndex(behind, count: rows.count)].rowid] == nil {
            range = max(0, index - 4 * Self.prefetchDistance)..<index
        } else {
            return
        }
        let wanted = range.map { rows[anchorIndex($0, count: rows.count)].rowid }.filter { decoded[$0] == nil }
        guard !wanted.isEmpty else { return }
        isPrefetching = true
        let reader = self.reader
        store.read({ try reader.records(wanted, in: $0) }, completion: { [weak self] result in
            guard let self else { return }
            isPrefetching = false
            guard case .success(let records) = result else { return }
            if decoded.count + records.count > Self.decodedLimit { decoded.removeAll(keepingCapacity: true) }
            decoded.merge(records) { current, _ in current }
        })
    }

    /// How close to rows not decoded yet a reader gets before they are read ahead.
    static var prefetchDistance: Int { 48 }

    /// Decodes the rows around public `index` that are not decoded yet.
    func decodeNear(_ index: Int) {
        let rows = state.window.rows
        let range = max(0, index - 32)..<min(rows.count, index + 96)
        decode(range.map { rows[anchorIndex($0, count: rows.count)].rowid }.filter { decoded[$0] == nil })
    }

    /// Reads and decodes `rowids` now, waiting for the store's queue.
    func decode(_ rowids: [Int64]) {
        guard !rowids.isEmpty else { return }
        waitingReads += 1
        let reader = self.reader
        guard let records = try? store.readNow({ try reader.records(rowids, in: $0) }) else { return }
        if decoded.count + records.count > Self.decodedLimit, records.count <= Self.decodedLimit {
            decoded.removeAll(keepingCapacity: true)
        }
        decoded.merge(records) { _, new in new }
    }
}
