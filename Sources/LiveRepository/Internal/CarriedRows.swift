/// Which rows of a live collection's window a delivery carries decoded, so that reading them
/// never touches the cache.
struct CarriedRows: Sendable {
    /// Windows of up to this many rows are carried whole.
    var all: Int
    /// Of a larger window: this many rows from the anchor...
    var nearAnchor: Int
    /// ...and the neighbourhood of the public index a reader read last, if any.
    var readerIndex: Int?
    /// Whether public index 0 is the anchor's end (the collection is anchored at the start).
    var fromStart: Bool

    /// The anchor-order indexes of the rows to carry in a window of `count` rows.
    func indexes(count: Int) -> [Int] {
        if count <= all { return Array(0..<count) }
        var indexes = Array(0..<min(nearAnchor, count))
        if let readerIndex {
            let near = Self.neighbourhood(of: min(readerIndex, count - 1), count: count)
            indexes += near.map { fromStart ? $0 : count - 1 - $0 }
        }
        return indexes
    }

    /// The public indexes around `index` that a delivery carries for a reader there, and that a
    /// read on demand decodes at once: a screen or two either way.
    static func neighbourhood(of index: Int, count: Int) -> Range<Int> {
        max(0, index - 32)..<min(count, index + 96)
    }
}
