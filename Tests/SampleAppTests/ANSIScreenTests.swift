@testable import SampleTerminal
import Testing

@MainActor
@Suite
struct ANSIScreenTests {
    private func frame(_ body: [String], input: String = "") -> Frame {
        Frame(screen: "a", header: "header", title: "Title", body: body, notice: "n", status: "online", input: input)
    }

    /// A row without its colour escapes.
    private func plain(_ row: String) -> String {
        row.replacing(/\u{1B}\[[0-9;]*m/, with: "")
    }

    @Test func aFrameFillsTheTerminalExactly() {
        let rows = ANSIScreen.rows(of: frame(Array(repeating: "line", count: 40)), size: (width: 80, height: 24))
        #expect(rows.count == 24)
        #expect(rows.dropLast().allSatisfy { TextLayout.columns(plain($0)) == 80 })
        #expect(rows.last == "> ")
    }

    @Test func rowsWithWideCharactersTakeExactlyTheWidthToo() {
        let body = ["      💬 3  ♥ 2", "日本語の" + String(repeating: "字", count: 50), "❤️ a heart", "🇫🇷 " + String(repeating: "x", count: 90)]
        let rows = ANSIScreen.rows(of: frame(body), size: (width: 80, height: 24))
        for row in rows.dropLast() {
            #expect(TextLayout.columns(plain(row)) == 80, "\(row)")
        }
    }

    @Test func theInputLineKeepsItsEndWithinTheWidth() {
        let input = String(repeating: "a", count: 10) + String(repeating: "語", count: 50)
        let rows = ANSIScreen.rows(of: frame([], input: input), size: (width: 80, height: 24))
        let shown = try! #require(rows.last?.dropFirst(2))
        #expect(TextLayout.columns(shown) <= 77)
        #expect(input.hasSuffix(shown))
    }
}
