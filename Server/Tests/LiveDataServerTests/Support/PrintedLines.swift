import Synchronization

/// The lines a server printed, collected by its `print` function.
final class PrintedLines: Sendable {
    private let storage = Mutex<[String]>([])

    func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }

    var lines: [String] { storage.withLock { $0 } }
}
