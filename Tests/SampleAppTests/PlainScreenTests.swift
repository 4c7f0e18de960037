import SampleTerminal
import Testing

@MainActor
@Suite
struct PlainScreenTests {
    private func frame(_ screen: String, _ body: [String], notice: String = "", status: String = "online") -> Frame {
        Frame(screen: screen, header: "header", title: "Title \(screen)", body: body, notice: notice, status: status)
    }

    @Test func aNewScreenPrintsWholeAndLaterFramesOnlyTheirNewLines() {
        var written: [String] = []
        let screen = PlainScreen { written.append($0) }
        screen.show(frame("a", ["one", "two"]))
        #expect(written == ["== Title a ==\none\ntwo\nstatus: online\n"])
        screen.show(frame("a", ["two", "three"], notice: "hello"))
        #expect(written.last == "three\nnotice: hello\n")
        screen.show(frame("a", ["two", "three"], notice: "hello"))
        #expect(written.count == 2)
        screen.show(frame("a", ["two", "three"], notice: "hello", status: "offline"))
        #expect(written.last == "status: offline\n")
        screen.show(frame("b", ["two"]))
        #expect(written.last == "== Title b ==\ntwo\nstatus: online\n")
    }

    @Test func repeatedLinesAreCountedAndALineThatComesBackPrintsAgain() {
        var written: [String] = []
        let screen = PlainScreen { written.append($0) }
        screen.show(frame("a", ["ok"]))
        screen.show(frame("a", ["ok", "ok"]))
        #expect(written.last == "ok\n")
        screen.show(frame("a", ["other"]))
        screen.show(frame("a", ["ok"]))
        #expect(written.last == "ok\n")
    }

    @Test func noEscapeSequencesInPlainOutput() {
        var written = ""
        let screen = PlainScreen { written += $0 }
        screen.show(frame("a", ["x"]))
        screen.log("> /quit")
        #expect(!written.contains("\u{1B}"))
        #expect(written.hasSuffix("> /quit\n"))
    }
}
