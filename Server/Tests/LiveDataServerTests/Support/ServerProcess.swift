import Foundation
import Synchronization

/// The built `livedata-server` executable, run as a child process; its standard output read line by line.
final class ServerProcess: Sendable {
    let process: Process
    private let lines: AsyncStream<String>

    /// Starts `livedata-server` with `arguments`.
    init(arguments: [String]) throws {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let (lines, continuation) = AsyncStream<String>.makeStream()
        self.lines = lines
        self.process = process
        let pending = PendingBytes()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                continuation.finish()
                return
            }
            let complete: [String] = pending.bytes.withLock { buffer in
                buffer.append(data)
                var found: [String] = []
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    found.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer = Data(buffer[(newline + 1)...])
                }
                return found
            }
            for line in complete { continuation.yield(line) }
        }
        try process.run()
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

    /// Waits for the process to exit; its status.
    func waitForExit() async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.process.waitUntilExit()
                continuation.resume(returning: self.process.terminationStatus)
            }
        }
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

/// Bytes read from a pipe and not yet split into lines.
final class PendingBytes: Sendable {
    let bytes = Mutex(Data())
}
