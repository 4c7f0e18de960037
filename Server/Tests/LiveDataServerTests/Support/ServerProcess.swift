import Foundation
import ProcessLauncher

/// The built `livedata-server` executable, run as a child process (a ``SpawnedProcess``:
/// Foundation's `Process` sometimes crashes on Linux as it starts one); its standard output read
/// line by line.
final class ServerProcess: Sendable {
    let process: SpawnedProcess
    private let lines: AsyncStream<String>

    /// Starts `livedata-server` with `arguments`.
    init(arguments: [String]) throws {
        let process = try SpawnedProcess(
            try Self.executable().path, arguments: arguments, standardOutput: .pipe, standardError: .nullDevice)
        let (lines, continuation) = AsyncStream<String>.makeStream()
        self.lines = lines
        self.process = process
        // A blocking read on a thread of its own ends exactly at the end of the output (not a
        // `readabilityHandler`, whose dispatch source has missed the end of a pipe on Linux).
        let handle = process.output!
        Thread.detachNewThread {
            var buffer = Data()
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                buffer.append(data)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer = Data(buffer[(newline + 1)...])
                }
            }
            continuation.finish()
        }
    }

    /// Lines printed until one satisfies `predicate` (returned with the ones before it), or all
    /// of them when the output ends first.
    func lines(until predicate: (String) -> Bool) async -> (before: [String], match: String?) {
        var before: [String] = []
        for await line in lines {
            if predicate(line) { return (before, line) }
            before.append(line)
        }
        return (before, nil)
    }

    /// Waits for the process to exit; its status (or the number of the signal that ended it).
    func waitForExit() async -> Int32 {
        await process.termination().status
    }

    /// The executable, built beside the test bundle (the test target depends on it).
    static func executable() throws -> URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for name in ["livedata-server", "LiveDataServerCommand"] {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw TestServerError("no livedata-server executable in \(folder.path); build the package's tests first")
    }
}
