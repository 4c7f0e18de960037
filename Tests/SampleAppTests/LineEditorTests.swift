import SampleTerminal
import Testing

@Suite
struct LineEditorTests {
    @Test func typingAndEnterMakeACommandAndEmptyTheLine() {
        var editor = LineEditor()
        for character in "hi?" { #expect(editor.apply(.character(character)) == nil) }
        #expect(editor.text == "hi?")
        #expect(editor.apply(.backspace) == nil)
        #expect(editor.text == "hi")
        #expect(editor.apply(.enter) == .say("hi"))
        #expect(editor.text == "")
    }

    @Test func keysThatAreCommandsOnAnEmptyLine() {
        var editor = LineEditor()
        #expect(editor.apply(.character("?")) == .help)
        #expect(editor.text == "")
        #expect(editor.apply(.escape) == .back)
        #expect(editor.apply(.up) == .more)
        #expect(editor.apply(.pageUp) == .more)
        #expect(editor.apply(.down) == .newer)
        #expect(editor.apply(.pageDown) == .newer)
        #expect(editor.apply(.interrupt) == .quit)
        #expect(editor.apply(.endOfInput) == .quit)
        #expect(editor.apply(.backspace) == nil)
    }

    @Test func escapeClearsATypedLineAndCtrlDDoesNotQuitIt() {
        var editor = LineEditor()
        _ = editor.apply(.character("x"))
        #expect(editor.apply(.endOfInput) == nil)
        #expect(editor.apply(.escape) == nil)
        #expect(editor.text == "")
    }
}

@Suite
struct KeyTests {
    @Test func decodesKeysArrowsPagesAndUnicode() {
        let bytes = Array("a\u{1B}[A\u{1B}[B\u{1B}[5~\u{1B}[6~\u{1B}OAé🎉\r\u{7F}\t\u{03}\u{04}".utf8)
        #expect(Key.decode(bytes) == [
            .character("a"), .up, .down, .pageUp, .pageDown, .up, .character("é"), .character("🎉"), .enter, .backspace,
            .tab, .interrupt, .endOfInput,
        ])
    }

    @Test func aLoneEscapeIsEscapeAndUnknownSequencesAreSkipped() {
        #expect(Key.decode([0x1B]) == [.escape])
        #expect(Key.decode(Array("\u{1B}[1;5Cx".utf8)) == [.character("x")])
        #expect(Key.decode([0x01, 0x02]) == [])
    }
}
