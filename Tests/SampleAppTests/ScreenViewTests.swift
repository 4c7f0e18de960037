import SampleTerminal
import Testing

/// What every screen shares: resolving the argument of `/open`, and being told the user types.
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

    @Test func aNumberAmongRowsNamesTheIdOfTheRowShownThere() {
        struct Row: Identifiable { var id: String }
        let view = TestScreenView("list")
        let shown = [Row(id: "random"), Row(id: "general")]
        #expect(view.id(opening: "1", in: shown) == "random")
        #expect(view.id(opening: "3", in: shown) == nil)
        #expect(view.id(opening: "keynote", in: shown) == "keynote")
    }

    @Test func typingIsToldOnceForEachChangeAndRedraws() {
        let view = TestScreenView("list")
        var redraws = 0
        view.onChange = { redraws += 1 }
        view.setTyping(true)
        view.setTyping(true)
        #expect(view.isTyping)
        view.setTyping(false)
        #expect(!view.isTyping)
        #expect(redraws == 2)
    }

    @Test func anythingElseIsTheIdItself() {
        let view = TestScreenView("list")
        #expect(view.id(opening: "keynote", row: row) == "keynote")
    }
}
