import SampleTerminal
import Testing

/// What every screen shares: resolving the argument of `/open`.
@MainActor
@Suite
struct ScreenViewTests {
    private let rows = ["general", "random"]

    private func row(_ index: Int) -> String? {
        rows.indices.contains(index) ? rows[index] : nil
    }

    @Test func aNumberNamesTheIdOnThatRowCountedFromOne() {
        let view = TestScreenView("list")
        #expect(view.id(opening: "1", row: row) == "general")
        #expect(view.id(opening: "2", row: row) == "random")
    }

    @Test func aNumberWithNoRowNamesNothing() {
        let view = TestScreenView("list")
        #expect(view.id(opening: "3", row: row) == nil)
        #expect(view.id(opening: "0", row: row) == nil)
    }

    @Test func anythingElseIsTheIdItself() {
        let view = TestScreenView("list")
        #expect(view.id(opening: "keynote", row: row) == "keynote")
    }
}
