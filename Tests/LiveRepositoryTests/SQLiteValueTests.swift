import Testing
import LiveRepository

@Suite(.timeLimit(.minutes(3))) struct SQLiteValueTests {
    @Test func literalsBuildTheMatchingStorageClass() {
        let values: [SQLiteValue] = [nil, 42, 1.5, "abc", true, false]
        #expect(values == [.null, .integer(42), .real(1.5), .text("abc"), .integer(1), .integer(0)])
    }

    @Test func helpersConvertSwiftValues() {
        #expect(SQLiteValue.int(-7) == .integer(-7))
        #expect(SQLiteValue.bool(true) == .integer(1))
        #expect(SQLiteValue.bool(false) == .integer(0))
        #expect(SQLiteValue.optional("x" as String?) == .text("x"))
        #expect(SQLiteValue.optional(nil as String?) == .null)
        #expect(SQLiteValue.optional(2.5 as Double?) == .real(2.5))
        #expect(SQLiteValue.optional(nil as Double?) == .null)
    }

    @Test func describesItselfAsSQLWouldPrintIt() {
        #expect(SQLiteValue.null.description == "NULL")
        #expect(SQLiteValue.integer(.min).description == "-9223372036854775808")
        #expect(SQLiteValue.real(1.5).description == "1.5")
        #expect(SQLiteValue.text("it's").description == "'it''s'")
        #expect(SQLiteValue.blob([0x00, 0xAB, 0xFF]).description == "x'00abff'")
        #expect(SQLiteValue.blob([]).description == "x''")
    }

    @Test func equalValuesHashAlike() {
        let values: Set<SQLiteValue> = [.text("a"), .text("a"), .integer(1), .real(1), .blob([1]), .null]
        #expect(values.count == 5)
        #expect(SQLiteValue.integer(1) != .real(1))
    }
}
