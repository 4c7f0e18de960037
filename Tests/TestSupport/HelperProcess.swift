import Foundation

/// A `LiveTestHelper` process run by a test: lines written to its standard input, and its
/// standard output read line by line as it comes (or, with ``exitStatus()`` and ``allLines``,
/// all of it once the process has ended). Started with ``SpawnedProcess``, not Foundation's
/// `Process` (whose `run()` sometimes crashes on Linux; see there).
///
/// `@unchecked Sendable`: `lock` guards `buffer`, `lines`, `consumed`, `waiter` and `ended`;
/// the process and its pipes' handles are safe to use from any thread. A waiter is resumed after unlocking.
public final class HelperProcess: @unchecked Sendable {
    private let process: SpawnedProcess
    private let input: FileHandle
    private let lock = NSLock()
    private var buffer = Data()
    private var lines: [String] = []
    private var consumed = 0
    private var ended = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// Starts `LiveTestHelper` with `arguments` (the command first).
    public init(_ arguments: [String]) throws {
        let process = try SpawnedProcess(
            try HelperExecutable.url(named: "LiveTestHelper").path, arguments: arguments,
            standardInput: .pipe, standardOutput: .pipe)
        self.process = process
        input = process.input!
        // A blocking read on a thread of its own ends exactly at the end of the output, once the
        // process and everything it started have closed it.
        let handle = process.output!
        Thread.detachNewThread { [weak self] in
            while true {
                let data = handle.availableData
                guard let self else { return }
                self.receive(data)
                if data.isEmpty { return }
            }
        }
    }

    deinit {
        process.send(SIGTERM)
    }

    /// The process's id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Kills the process at once with `SIGKILL`, as a crash would: it finishes nothing. What it
    /// printed before stays readable; ``exitStatus()`` then returns the signal's number.
    public func kill() {
        process.send(SIGKILL)
    }

    /// Writes `line` and a newline to the process's standard input.
    public func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Every line the process printed so far.
    public var allLines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// The next line not yet returned, waiting for it; nil once the output has ended. The wait is
    /// bounded by the suite's time limit (a cancelled test stops waiting).
    public func nextLine() async -> String? {
        while true {
            switch take() {
            case .line(let line): return line
            case .ended: return nil
            case .none:
                await withTaskCancellationHandler {
                    await withCheckedContinuation { park($0) }
                } onCancel: {
                    self.wake()
                }
            }
        }
    }

    private enum Taken {
        case line(String)
        case ended
        case none
    }

    /// The next unread line, or whether the output has ended (or the test was cancelled).
    private func take() -> Taken {
        lock.lock()
        defer { lock.unlock() }
        if consumed < lines.count {
            consumed += 1
            return .line(lines[consumed - 1])
        }
        return ended || Task.isCancelled ? .ended : .none
    }

    /// Keeps `continuation` to resume when a line comes, or resumes it now if one came meanwhile.
    private func park(_ continuation: CheckedContinuation<Void, Never>) {
        lock.lock()
        if consumed < lines.count || ended || Task.isCancelled {
            lock.unlock()
            continuation.resume()
        } else {
            waiter = continuation
            lock.unlock()
        }
    }

    /// Reads lines until one equals `expected` or starts with it, and returns it; nil when the output ends first.
    public func nextLine(startingWith expected: String) async -> String? {
        while let line = await nextLine() {
            if line.hasPrefix(expected) { return line }
        }
        return nil
    }

    /// The process's exit status (or the number of the signal that ended it), once its output has ended.
    public func exitStatus() async -> Int32 {
        while await nextLine() != nil {}
        return await process.termination().status
    }

    private func receive(_ data: Data) {
        lock.lock()
        if data.isEmpty {
            ended = true
        } else {
            buffer.append(data)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
        }
        lock.unlock()
        wake()
    }

    private func wake() {
        lock.lock()
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume()
    }
}
