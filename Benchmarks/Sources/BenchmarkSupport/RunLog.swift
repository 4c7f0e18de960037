import Foundation

/// Progress lines of a benchmark run on standard error, each stamped with the seconds since the
/// log was made (make it first thing, so that it marks the start of the run).
public struct RunLog: Sendable {
    /// The executable's name, at the front of every line.
    public let name: String
    private let start = ContinuousClock.now

    /// A log for the executable `name`, started now.
    public init(_ name: String) {
        self.name = name
    }

    /// Writes `text` as one progress line: `[name 1.23 s] text`.
    public func callAsFunction(_ text: String) {
        let elapsed = formatted(seconds(start.duration(to: .now)))
        FileHandle.standardError.write(Data("[\(name) \(elapsed) s] \(text)\n".utf8))
    }

    /// A new, empty folder in the temporary directory for this run's files, named after the
    /// executable, `purpose` and the process; remove it when done.
    public func scratchFolder(_ purpose: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-\(purpose)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
