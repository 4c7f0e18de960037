import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's terminal: whether standard input and output are one, its size, and raw mode.
public enum Terminal {
    /// Whether standard output is a terminal (else the app prints plain lines).
    public static var isOutputInteractive: Bool { isatty(STDOUT_FILENO) == 1 }
    /// Whether standard input is a terminal (else commands are read line by line).
    public static var isInputInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// The terminal's columns and rows, or nil when standard output is not a terminal.
    public static var size: (width: Int, height: Int)? {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Puts standard input in raw mode (keys arrive one by one, unechoed) and returns the
    /// settings to restore with ``restore(_:)``; nil when standard input is not a terminal.
    public static func enableRawMode() -> termios? {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
        return original
    }

    /// Restores settings saved by ``enableRawMode()``.
    public static func restore(_ settings: termios) {
        var settings = settings
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
    }

    /// Writes `text` to standard output at once.
    public static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
