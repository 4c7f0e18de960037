import LiveRepository

/// The position after which a page starts: the last (sort value, id) the previous page returned.
///
/// Encoded as text for ``RemotePage/nextCursor``: a type tag, the value and the id, separated
/// by the unit separator character (which ids and values never contain in practice).
struct PageCursor: Equatable {
    var sortValue: SQLiteValue
    var id: String

    private static let separator: Character = "\u{1F}"

    var encoded: String {
        let value: String
        switch sortValue {
        case .null: value = "n"
        case .integer(let integer): value = "i" + String(integer)
        case .real(let real): value = "r" + String(real)
        case .text(let text): value = "t" + text
        case .blob(let bytes): value = "b" + bytes.map { String($0) }.joined(separator: ",")
        }
        return value + String(Self.separator) + id
    }

    init(sortValue: SQLiteValue, id: String) {
        self.sortValue = sortValue
        self.id = id
    }

    /// Decodes a cursor; nil when the text is not one this server made.
    init?(encoded: String) {
        guard let split = encoded.firstIndex(of: Self.separator), split > encoded.startIndex,
              let tag = encoded.first else { return nil }
        let body = String(encoded[encoded.index(after: encoded.startIndex)..<split])
        id = String(encoded[encoded.index(after: split)...])
        switch tag {
        case "n": sortValue = .null
        case "i": guard let integer = Int64(body) else { return nil }; sortValue = .integer(integer)
        case "r": guard let real = Double(body) else { return nil }; sortValue = .real(real)
        case "t": sortValue = .text(body)
        case "b":
            let bytes = body.isEmpty ? [] : body.split(separator: ",").compactMap { UInt8($0) }
            sortValue = .blob(bytes)
        default: return nil
        }
    }
}
