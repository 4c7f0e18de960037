/// Decoding a live collection's records: carried by deliveries, read ahead of a reader, and
/// read on demand beside the writes.
extension LiveCollection {
    /// The decoded record of `row`, or nil when it is not decoded (or the rowid now stands for
    /// another record: SQLite reuses the rowid of a deleted row).
    func decodedRecord(of row: RowKey) -> Record? {
        guard let record = state.reading.decoded[row.rowid], record.id == row.id else { return nil }
        return record
    }

    /// When a reader moving through the window gets near rows that are not decoded yet (in
    /// either direction), decodes them beside the writes, so a scrolling list seldom reads on
    /// demand.
    ///
    /// The read may see a commit that has not been delivered yet, or land after a delivery that
    /// changed some of its rows: records of rows that a delivery touched while it ran are
    /// dropped (all of them after a change not tracked row by row), so a record read before a
    /// write never outlives the write's delivery.
    func prefetchAround(_ index: Int) {
        guard state.reading.touchedDuringPrefetch == nil else { return }
        let rows = state.window.rows
        let ahead = min(rows.count, index + Self.prefetchDistance)
        let behind = max(0, index - Self.prefetchDistance)
        let range: Range<Int>
        if ahead > index + 1, decodedRecord(of: rows[anchorIndex(ahead - 1, count: rows.count)]) == nil {
            range = index..<min(rows.count, index + 4 * Self.prefetchDistance)
        } else if behind < index, decodedRecord(of: rows[anchorIndex(behind, count: rows.count)]) == nil {
            range = max(0, index - 4 * Self.prefetchDistance)..<index
        } else {
            return
        }
        let wanted = range.map { rows[anchorIndex($0, count: rows.count)] }.filter { decodedRecord(of: $0) == nil }
        guard !wanted.isEmpty else { return }
        state.reading.touchedDuringPrefetch = []
        let generation = state.reading.decodedGeneration
        let reader = self.reader
        store.readBeside({ try reader.records(of: wanted, in: $0) }, completion: { [weak self] result in
            guard let self, let touched = state.reading.touchedDuringPrefetch else { return }
            state.reading.touchedDuringPrefetch = nil
            guard case .success(let records) = result, generation == state.reading.decodedGeneration else { return }
            keep(records.filter { !touched.contains($0.key) }, replacing: false)
        })
    }

    /// How close to rows not decoded yet a reader gets before they are read ahead.
    static var prefetchDistance: Int { 48 }

    /// Decodes the rows around public `index` that are not decoded yet.
    func decodeNear(_ index: Int) {
        let rows = state.window.rows
        decode(CarriedRows.neighbourhood(of: index, count: rows.count).map { rows[anchorIndex($0, count: rows.count)] })
    }

    /// Reads and decodes those of `rows` not decoded yet, now, beside the writes, and returns
    /// what it read. Up to half the decoded-records limit they are also kept decoded; a larger
    /// read (``allObjects()`` of a huge window) is returned only.
    @discardableResult
    func decode(_ rows: [RowKey]) -> [Int64: Record] {
        let missing = rows.filter { decodedRecord(of: $0) == nil }
        guard !missing.isEmpty else { return [Int64: Record]() }
        state.reading.waitingReads += 1
        let reader = self.reader
        guard let records = try? store.readNow({ try reader.records(of: missing, in: $0) }) else { return [Int64: Record]() }
        if records.count <= Self.decodedLimit / 2 { keep(records, replacing: true) }
        return records
    }

    /// Adds decoded records. When the decoded set would pass its limit, it first lets go of every
    /// record but those of the rows a delivery of `window` carries (near the anchor and the
    /// reader), freed on a background queue. `replacing`: whether a record replaces one decoded
    /// already for the same rowid.
    func keep(_ records: [Int64: Record], replacing: Bool, in window: CollectionWindow? = nil) {
        if state.reading.decoded.count + records.count > Self.decodedLimit {
            let rows = (window ?? state.window).rows
            var kept = [Int64: Record]()
            for index in carriedRows.indexes(count: rows.count) {
                let rowid = rows[index].rowid
                if let record = state.reading.decoded[rowid] { kept[rowid] = record }
            }
            let evicted = state.reading.decoded
            state.reading.decoded = kept
            state.reading.evictedSinceRead = true
            store.discard(consume evicted)
        }
        // A loop rather than `merge(_:uniquingKeysWith:)`, which runs unspecialized here
        // (`Record` is known only at run time) at several times the cost; over indexes rather
        // than `(key, value)` pairs, whose type the runtime looks up, behind a lock, at each call.
        var index = records.startIndex
        while index != records.endIndex {
            let rowid = records.keys[index]
            if replacing || state.reading.decoded[rowid] == nil { state.reading.decoded[rowid] = records.values[index] }
            records.formIndex(after: &index)
        }
    }

    /// Drops the decoded records of rows a write touched, looking up whichever side is smaller:
    /// a burst touches tens of thousands of rowids, and at most a few thousand rows are decoded.
    func forget(_ touched: Set<Int64>) {
        if touched.count > state.reading.decoded.count {
            for rowid in state.reading.decoded.keys.filter(touched.contains) { state.reading.decoded[rowid] = nil }
        } else {
            for rowid in touched { state.reading.decoded[rowid] = nil }
        }
    }

    /// The most records kept decoded at once; beyond it the decoded set starts over.
    static var decodedLimit: Int { 8_192 }
}
