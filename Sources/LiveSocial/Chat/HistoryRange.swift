import LiveRepository

/// The part of a channel's history between two bounds, oldest end first: what a message
/// collection has loaded, or what a page may bring (everything after its start).
struct HistoryRange: Sendable, Equatable {
    /// The older end.
    var older: HistoryBound
    /// The newer end.
    var newer: HistoryBound

    /// The range of a page read in `query`'s order after `start`: beyond `start` on the side the
    /// query runs towards, open on the other.
    static func after(_ start: MessagePosition, in query: CacheQuery<Message>) -> HistoryRange {
        query.ascending ? HistoryRange(older: .excluding(start), newer: .open)
            : HistoryRange(older: .open, newer: .excluding(start))
    }

    /// Whether `position` lies inside the range.
    func contains(_ position: MessagePosition) -> Bool {
        older.admits(position, fromBelow: true) && newer.admits(position, fromBelow: false)
    }
}

/// One end of the part of history a message collection has loaded.
enum HistoryBound: Sendable, Equatable {
    /// Nothing lies beyond: every message on this side is in range.
    case open
    /// Messages up to and including this position are in range.
    case including(MessagePosition)
    /// Messages before this position are in range; it is the first one a page left out.
    case excluding(MessagePosition)

    /// Whether `position` is on the inner side of the bound: above it for the older end
    /// (`fromBelow`), below it for the newer end.
    func admits(_ position: MessagePosition, fromBelow: Bool) -> Bool {
        switch self {
        case .open: true
        case .including(let bound): fromBelow ? position >= bound : position <= bound
        case .excluding(let bound): fromBelow ? position > bound : position < bound
        }
    }

    /// Whether nothing lies beyond: there is nothing more to load on this side.
    var isOpen: Bool {
        if case .open = self { true } else { false }
    }

    /// The bound a page answered by the server sets: just before the first message it left out
    /// (its peek), or open when there was none.
    static func after(page: [Message], keeping size: Int) -> HistoryBound {
        page.count > size ? .excluding(MessagePosition(of: page[size])) : .open
    }
}

extension Message {
    /// The cached messages of `query` inside `range`, in the query's order, at most `limit`: the one
    /// reader of ranges of history, for pages (a range after a position) and for re-reading what a
    /// collection has loaded (a range between its bounds).
    ///
    /// Each bound becomes a keyset condition of ``CacheQuery/condition(after:id:)``: a bound that
    /// excludes its position is "after" it in the order running away from it; one that includes
    /// it is "not after" it in the order running towards it.
    static func read(
        _ query: CacheQuery<Message>, within range: HistoryRange, limit: Int = .max, from connection: SQLiteConnection
    ) throws -> [Message] {
        let ascending = query.ascending ? query : query.reversed
        let descending = ascending.reversed
        var (condition, bindings) = query.whereClause
        for (bound, inward, outward) in [(range.older, ascending, descending), (range.newer, descending, ascending)] {
            let keyset: (sql: String, bindings: [SQLiteValue])
            switch bound {
            case .open: continue
            case .excluding(let position): keyset = inward.condition(after: .real(position.createdAt), id: position.id)
            case .including(let position):
                let beyond = outward.condition(after: .real(position.createdAt), id: position.id)
                keyset = ("NOT \(beyond.sql)", beyond.bindings)
            }
            condition = "(\(condition)) AND \(keyset.sql)"
            bindings += keyset.bindings
        }
        let table = Message.table
        return try connection.query(
            "SELECT \(table.columnList) FROM \(table.name) WHERE \(condition) \(query.orderByClause) LIMIT ?",
            bindings + [.int(max(0, limit))]
        ) { try Message(row: $0) }
    }
}
