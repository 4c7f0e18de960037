/// The input line of an interactive terminal: keys edit it, Enter turns it into a command, and
/// a few keys are commands by themselves while it is empty (`?` help, Esc back, arrows scroll).
public struct LineEditor: Sendable, Hashable {
    /// The text typed so far.
    public private(set) var text = ""

    /// Creates an empty line.
    public init() {}

    /// Applies a key, and returns the command it completes, if any.
    public mutating func apply(_ key: Key) -> Command? {
        switch key {
        case .character(let character):
            if text.isEmpty && character == "?" { return .help }
            text.append(character)
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .enter:
            defer { text = "" }
            return Command(parsing: text)
        case .escape:
            if text.isEmpty { return .back }
            text = ""
        case .up, .pageUp:
            return .more
        case .down, .pageDown:
            return .newer
        case .tab:
            break
        case .interrupt:
            return .quit
        case .endOfInput:
            if text.isEmpty { return .quit }
        }
        return nil
    }
}
