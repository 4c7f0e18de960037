import Foundation

/// Frames as plain lines, for output that is not a terminal (a pipe, a file, a test): the first
/// frame of a screen is printed whole; a later frame of the same screen prints only its lines that
/// the frame before it did not have (a message that arrived, a status that changed). Every line is
/// flushed at once.
@MainActor
public final class PlainScreen: ScreenOutput {
    /// The columns and rows frames are made for: 80 by 24, as on a terminal.
    public let size: (width: Int, height: Int)
    private let write: (String) -> Void
    private var screen: String?
    private var previous: [String] = []

    /// Creates an output that writes to `write` (standard output by default).
    public init(width: Int = 80, height: Int = 24, write: @escaping (String) -> Void = PlainScreen.standardOutput) {
        self.size = (width, height)
        self.write = write
    }

    /// Writes `text` to standard output, unbuffered.
    nonisolated public static func standardOutput(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// The frame's lines as this output prints them.
    static func lines(of frame: Frame) -> [String] {
        var lines = ["== \(frame.title) =="] + frame.body
        if !frame.notice.isEmpty { lines.append("notice: \(frame.notice)") }
        lines.append("status: \(frame.status)")
        return lines
    }

    public func show(_ frame: Frame) {
        let lines = Self.lines(of: frame)
        let fresh: [String]
        if frame.screen != screen {
            screen = frame.screen
            fresh = lines
        } else {
            var before = Dictionary(previous.map { ($0, 1) }, uniquingKeysWith: +)
            fresh = lines.filter { line in
                guard let count = before[line], count > 0 else { return !line.isEmpty }
                before[line] = count - 1
                return false
            }
        }
        previous = lines
        if !fresh.isEmpty { write(fresh.map { $0 + "\n" }.joined()) }
    }

    public func log(_ line: String) {
        write(line + "\n")
    }

    public func finish() {}
}
