import Foundation

/// Standard input and output for the server commands: whole lines, unbuffered, so a test reads
/// each line as soon as it is printed.
enum ServerIO {
    /// Writes `line` and a newline to standard output at once (one `write`, never interleaved).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes `line` to standard error.
    static func complain(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The next line of standard input, or nil at its end; read on a thread of its own, so no
    /// task waits blocked.
    static func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Swift.readLine()) }
        }
    }

    /// Reads lines until one starts with `prefix`, and returns what follows it; nil at the end of input.
    static func waitForLine(startingWith prefix: String) async -> String? {
        while let line = await readLine() {
            if line.hasPrefix(prefix) { return String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}
