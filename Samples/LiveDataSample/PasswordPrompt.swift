import Foundation

/// Reads a password from the terminal without echoing it.
enum PasswordPrompt {
    /// Prints `prompt` on standard error and reads one line from standard input with echo off
    /// when it is a terminal; nil at the end of input.
    static func read(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var settings = termios()
        let isTerminal = tcgetattr(STDIN_FILENO, &settings) == 0
        if isTerminal {
            var silent = settings
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if isTerminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        return readLine(strippingNewline: true)
    }
}
