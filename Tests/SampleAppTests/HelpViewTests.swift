import SampleTerminal
import Testing

@MainActor
@Suite
struct HelpViewTests {
    @Test func everyLineFitsAnEightyColumnTerminalUncut() {
        for line in HelpView.lines { #expect(line.count <= 80, "\(line)") }
        let help = HelpView()
        #expect(help.body(width: 80, height: 19) == Array(HelpView.lines.prefix(19)))
    }

    @Test func theHelpHasNoDataStatus() {
        #expect(!HelpView().showsDataStatus)
        #expect(HelpView().title == "Help")
    }
}
