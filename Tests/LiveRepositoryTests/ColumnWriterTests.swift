import Testing
import LiveRepository

@Suite(.timeLimit(.minutes(3))) struct ColumnWriterTests {
    @Test func theValuesComeInTheTablesOrder() {
        #expect(Gadget.full.columnValues == [
            .text("g1"), .text("lamp"), .integer(3), .integer(1 << 40), .real(1.25), .integer(1),
            .text("glow"), .real(99.5), .text("busy"), .text(#"["b","a"]"#), .text(#"{"a":["2","3"],"z":["1"]}"#),
        ])
        #expect(Gadget.sparse.columnValues == [
            .text("g2"), .text("fan"), .integer(0), .integer(-1), .real(0), .integer(0),
            .null, .null, .text("calm"), .text("[]"), .text("{}"),
        ])
    }

    @Test func writingAColumnAsAnotherTypeTraps() async {
        await #expect(processExitsWith: .failure) {
            var values = ColumnWriter(Gadget.table)
            values.append("g1")
            values.append(3) // `name` is a text column
        }
    }

    @Test func writingAnOptionalToANonNullColumnTraps() async {
        await #expect(processExitsWith: .failure) {
            var values = ColumnWriter(Gadget.table)
            values.append("g1")
            values.append(String?.some("lamp"))
        }
    }

    @Test func leavingAColumnOutTraps() async {
        await #expect(processExitsWith: .failure) {
            var values = ColumnWriter(Gadget.table)
            values.append("g1")
            _ = values.finish()
        }
    }
}
