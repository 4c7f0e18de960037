/// Frames drawn full screen on an ANSI terminal: a top bar, the title, the body, a notice line,
/// a status bar and the input line, redrawing only the rows that changed.
@MainActor
public final class ANSIScreen: ScreenOutput {
    private var drawn: [String] = []
    private var drawnSize = (width: 0, height: 0)
    private let measure: () -> (width: Int, height: Int)?

    /// Creates an output for the terminal; it switches to the alternate screen at once.
    public init(measure: @escaping () -> (width: Int, height: Int)? = { Terminal.size }) {
        self.measure = measure
        Terminal.write("\u{1B}[?1049h\u{1B}[2J")
    }

    /// The terminal's size, at least 80 by 24 (smaller terminals cut the right and bottom edges).
    public var size: (width: Int, height: Int) {
        let measured = measure() ?? (80, 24)
        return (max(40, measured.width), max(12, measured.height))
    }

    /// The rows of `frame` on a terminal of `size`, with their colours.
    public static func rows(of frame: Frame, size: (width: Int, height: Int)) -> [String] {
        let width = size.width
        let bodyHeight = size.height - 5
        var rows = ["\u{1B}[7m" + TextLayout.pad(frame.header, width: width) + "\u{1B}[0m"]
        rows.append("\u{1B}[1m" + TextLayout.pad(frame.title, width: width) + "\u{1B}[0m")
        let body = frame.body.prefix(bodyHeight)
        rows += body.map { TextLayout.pad($0, width: width) }
        rows += Array(repeating: String(repeating: " ", count: width), count: bodyHeight - body.count)
        rows.append("\u{1B}[33m" + TextLayout.pad(frame.notice, width: width) + "\u{1B}[0m")
        rows.append("\u{1B}[7m" + TextLayout.pad(frame.status, width: width) + "\u{1B}[0m")
        rows.append("> " + TextLayout.suffix(frame.input, columns: width - 3))
        return rows
    }

    public func show(_ frame: Frame) {
        let size = self.size
        let rows = Self.rows(of: frame, size: size)
        var out = ""
        if size != drawnSize {
            out += "\u{1B}[2J"
            drawn = []
            drawnSize = size
        }
        for (index, row) in rows.enumerated() where index >= drawn.count || drawn[index] != row {
            out += "\u{1B}[\(index + 1);1H\u{1B}[2K" + row
        }
        let inputColumn = 3 + TextLayout.columns(TextLayout.suffix(frame.input, columns: size.width - 3))
        out += "\u{1B}[\(rows.count);\(inputColumn)H"
        drawn = rows
        Terminal.write(out)
    }

    public func log(_ line: String) {}

    public func finish() {
        Terminal.write("\u{1B}[?1049l")
    }
}
