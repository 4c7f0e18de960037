/// The order of a list's rows held while the user types: the rows keep the places they had on
/// the screen when typing began, so that the number typed opens the row the user read, even
/// when the list reorders meanwhile (a channel with a new message moves to the top).
///
/// Rows that change keep their place and show their new content; a row that arrives while the
/// order is held comes after the held ones, and a row that leaves takes its place with it. Once
/// released, the rows take the list's own order again.
struct HeldOrder {
    /// The held rows' places, by id; nil when nothing is held.
    private var places: [String: Int]?

    /// Whether an order is held.
    var isHeld: Bool { places != nil }

    /// Holds the order of `ids`, the rows as the screen shows them now.
    mutating func hold(_ ids: [String]) {
        places = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Lets the rows take the list's order again.
    mutating func release() {
        places = nil
    }

    /// `rows`, in the list's order, arranged in the held order when one is held.
    func arrange<Row>(_ rows: [Row], id: (Row) -> String) -> [Row] {
        guard let places else { return rows }
        return rows.enumerated()
            .sorted { first, second in
                let (a, b) = (places[id(first.element)] ?? .max, places[id(second.element)] ?? .max)
                return a != b ? a < b : first.offset < second.offset
            }
            .map(\.element)
    }
}
