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
