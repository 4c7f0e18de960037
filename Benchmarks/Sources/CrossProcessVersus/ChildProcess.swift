import Foundation

/// This executable, started again as a child process with other arguments (the writer, or an
/// idle watcher); its standard error is the parent's, its standard output is collected.
///
/// `@unchecked Sendable`: `process` and `pipe` are used by ``start(_:)`` on the caller's thread,
/// then only by the one block ``finished()`` runs on a global queue.
final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let pipe = Pipe()
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
        try child.process.run()
        return child
    }

    /// Waits, off the caller's thread, for the child to close its output and exit; returns its
    /// output's lines. A child that fails stops the run.
    func finished() async -> [String] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [self] in
                let output = pipe.fileHandleForReading.readDataToEndOfFile()
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
