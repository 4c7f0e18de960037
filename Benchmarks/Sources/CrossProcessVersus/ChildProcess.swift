import BenchmarkSupport
import Foundation
import ProcessLauncher

/// This executable, started again as a child process with other arguments (the writer, or an
/// idle watcher); its standard error is the parent's, its standard output is collected, and its
/// standard input takes the parent's lines (``send(_:)``).
///
/// Started with ``SpawnedProcess``: Foundation's `Process.run()` sometimes crashes on Linux.
///
/// `@unchecked Sendable`: `buffered`, and the reads of the child's output, belong to one block
/// at a time on a global queue (``waitForLine(startingWith:)``, then ``finished()``, which the
/// caller awaits in turn).
final class ChildProcess: @unchecked Sendable {
    private let process: SpawnedProcess
    /// Output read by ``waitForLine(startingWith:)``, given back by ``finished()``.
    private var buffered = Data()
    let arguments: [String]

    private init(arguments: [String], process: SpawnedProcess) {
        self.arguments = arguments
        self.process = process
    }

    /// Starts `CrossProcessVersus arguments…`.
    static func start(_ arguments: [String]) throws -> ChildProcess {
        let process = try SpawnedProcess(
            (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).path, arguments: arguments,
            standardInput: .pipe, standardOutput: .pipe)
        return ChildProcess(arguments: arguments, process: process)
    }

    /// Waits, off the caller's thread, until the child printed a line starting with `prefix` (or
    /// closed its output).
    func waitForLine(startingWith prefix: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [self] in
                while !String(decoding: buffered, as: UTF8.self).split(separator: "\n").contains(where: { $0.hasPrefix(prefix) }) {
                    let chunk = process.output!.availableData
                    if chunk.isEmpty { break }
                    buffered.append(chunk)
                }
                continuation.resume()
            }
        }
    }

    /// Writes `line` to the child's standard input.
    func send(_ line: String) {
        process.input!.write(Data((line + "\n").utf8))
    }

    /// Waits, off the caller's thread, for the child to close its output and exit; returns its
    /// output's lines. A child that fails stops the run.
    func finished() async -> [String] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [self] in
                let output = buffered + process.output!.readDataToEndOfFile()
                let termination = process.waitUntilExit()
                let text = String(decoding: output, as: UTF8.self)
                guard termination == .exited(0) else {
                    fatalError("`CrossProcessVersus \(arguments.joined(separator: " "))` failed "
                        + "(\(termination)):\n\(text)")
                }
                continuation.resume(returning: text.split(separator: "\n").map(String.init))
            }
        }
    }
}
