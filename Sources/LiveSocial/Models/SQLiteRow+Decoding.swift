import Foundation
import LiveRepository

extension SQLiteRow {
    /// Reads a text column as a string-backed enumeration.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_MISMATCH`) when the text is not one of the cases, such
    ///   as a value written by a newer version of the app.
    func decode<T: RawRepresentable>(_ column: Int, as type: T.Type = T.self) throws -> T where T.RawValue == String {
        let raw = string(column)
        guard let value = T(rawValue: raw) else {
            throw SQLiteError.mismatch("unknown \(T.self) value '\(raw)' in column \(column)")
        }
        return value
    }
}

extension SQLiteRow {
    /// Reads a text column holding JSON; `empty` stands for the empty collection, which is
    /// stored as `{}` or `[]` and read without a decoder.
    func decodeJSON<T: Decodable & Collection>(_ column: Int, empty: T) throws -> T {
        let text = string(column)
        if text == "{}" || text == "[]" || text.isEmpty { return empty }
        do {
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        } catch {
            throw SQLiteError.mismatch("column \(column) does not hold \(T.self) as JSON: \(error)")
        }
    }
}

extension SQLiteValue {
    /// A collection stored as JSON text, with sorted keys so equal values store equal text.
    static func json<T: Encodable & Collection>(_ value: T, empty: String) -> SQLiteValue {
        if value.isEmpty { return .text(empty) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Dictionaries of strings and arrays of plain structs always encode.
        let data = (try? encoder.encode(value)) ?? Data(empty.utf8)
        return .text(String(decoding: data, as: UTF8.self))
    }
}
