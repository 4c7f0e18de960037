import Foundation

/// This executable, started again as a child process with other arguments (the writer, or an
/// idle watcher); its standard error is the parent's, its standard output is collected, and its
/// standard input takes the parent's lines (``send(_:)``).
///
/// `@unchecked Sendable`: `process`, `pipe` and `input` are used by ``start(_:)`` on the
/// caller's thread, then by one block at a time on a global queue (``waitForLine(startingWith:)``, then
/// ``finished()``, which the caller awaits in turn); `buffered` only by those blocks.
final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let pipe = Pipe()
    private let input = Pipe()
    /// Output read by ``waitForLine(startingWith:)``, given back by ``finished()``.
    private var buffered = Data()
    let arguments: [String]

    private init(arguments: [String]) {
        self.arguments = arguments
    }

    /// Starts `CrossProcessVersus arguments…`.
    static func start(_ arguments: [String]) throws -> ChildProcess {
        let child = ChildProcess(arguments: arguments)
        child.process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        child.process.arguments = arguments
        child.process.standardOutput = child.pipe
        child.process.standardInput = child.input
        try child.process.run()
        return child
    }

    /// Waits, off the caller's thread, until the child printed a line starting with `prefix` (or
    /// closed its output).
    func waitForLine(startingWith prefix: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [self] in
                while !String(decoding: buffered, as: UTF8.self).split(separator: "\n").contains(where: { $0.hasPrefix(prefix) }) {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    buffered.append(chunk)
                }
                continuation.resume()
            }
        }
    }

    /// Writes `line` to the child's standard input.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits, off the caller's thread, for the child to close its output and exit; returns its
    /// output's lines. A child that fails stops the run.
    func finished() async -> [String] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [self] in
                let output = buffered + pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                let text = String(decoding: output, as: UTF8.self)
                guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                    fatalError("`CrossProcessVersus \(arguments.joined(separator: " "))` failed "
                        + "(\(process.terminationStatus)):\n\(text)")
                }
                continuation.resume(returning: text.split(separator: "\n").map(String.init))
            }
        }
    }
}
