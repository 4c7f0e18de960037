// Runs the built sample as a child process: macOS and Linux only (iOS and its siblings start no
// processes, and have no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// One run of the built `LiveDataSample` executable (a ``SpawnedProcess``: Foundation's `Process`
/// sometimes crashes on Linux as it starts one), its standard input, output and error on pipes.
///
/// Its output is not a terminal, so the app prints plain lines and echoes each command it reads.
/// A test writes commands with ``send(_:)`` and waits for what they print with ``waitFor(_:movingMark:)``
/// or ``waitForLine(_:where:)``: each wait looks at the output after the *mark*, and (by default)
/// moves the mark to the end of what it found, so consecutive waits also check the order of the
/// lines. Waits are event driven: a thread per pipe, blocked in its read, wakes them as output
/// comes. (Not `FileHandle.readabilityHandler`: on Linux its dispatch source sometimes missed
/// the end of a pipe, and tearing it down races libdispatch's event loop, an intermittent crash
/// of the whole test process in `_dispatch_event_loop_drain`, swift-corelibs-foundation pull
/// request 5507.) A wait ends when
/// its text comes, when the app's output ends without it, or when the test is cancelled (its time
/// limit); the last two throw a ``Failure`` with the output so far.
///
/// `@unchecked Sendable`: every mutable property (the output and errors collected, the mark, the
/// exit status, the waits under way) is read and written only while holding `lock`, an `NSLock`;
/// each pipe is read by its own thread only; the process and the pipes are set up in `init` and used afterwards only through calls that are
/// safe from any thread.
final class SampleProcess: @unchecked Sendable {
    /// Why a wait or a launch failed, with the output so far.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What a wait found.
    private struct Match {
        /// The output from where the wait looked up to the end of the match.
        var segment: String
        /// The text matched.
        var matched: String
    }

    private struct Waiter {
        var description: String
        var start: Int
        var movesMark: Bool
        var find: @Sendable (String) -> Range<String.Index>?
        var continuation: CheckedContinuation<Match, any Error>
    }

    /// The data folder given with `--data`, kept alive for as long as the process.
    let folder: TemporaryDirectory?
    /// The command line after the executable.
    let arguments: [String]

    private let process: SpawnedProcess
    private let input: FileHandle
    private let lock = NSLock()
    /// Serializes the reads of the pipes, each with the ``received(_:isError:)`` that follows it,
    /// so that the output keeps its order whichever thread reads. Taken before `lock`, never after.
    // Guarded by `lock`:
    private var outputBytes = Data()
    private var errorBytes = Data()
    private var mark = 0
    private var outputEnded = false
    private var errorsEnded = false
    private var exitStatus: Int32?
    private var inputClosed = false
    private var waiters: [Int: Waiter] = [:]
    private var nextWaiter = 0
    private var finishers: [CheckedContinuation<Void, Never>] = []

    /// Writing to the pipe of an app that has exited must fail with an error, not kill the tests.
    private static let brokenPipesIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Launches the app.
    ///
    /// - Parameters:
    ///   - folder: the data folder, passed as `--data`; nil for none (a test of the environment
    ///     variable, or one that passes its own `--data` in `arguments`).
    ///   - latency: the server's latency in milliseconds (`--latency`).
    ///   - arguments: more arguments, after `--data`, `--activity 0` and `--latency`.
    ///   - environment: variables added to the test's environment (from which
    ///     `LIVEDATA_SAMPLE_DATA` is removed first).
    init(data folder: TemporaryDirectory?, latency: Int = 100, arguments more: [String] = [], environment: [String: String] = [:]) throws {
        Self.brokenPipesIgnored
        self.folder = folder
        var arguments = folder.map { ["--data", $0.url.path] } ?? []
        arguments += ["--activity", "0", "--latency", String(latency)]
        arguments += more
        self.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        variables["LIVEDATA_SAMPLE_DATA"] = nil
        variables.merge(environment) { $1 }

        process = try SpawnedProcess(
            try Self.executableURL().path, arguments: arguments, environment: variables,
            standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
        input = process.input!
        process.onTermination { [weak self] termination in self?.exited(termination.status) }
        startReading(isError: false)
        startReading(isError: true)
    }

    deinit {
        process.send(SIGTERM)
    }

    /// The built `LiveDataSample`: beside the test bundle (`<scratch>/<triple>/debug/`).
    static func executableURL() throws -> URL {
        try HelperExecutable.url(named: "LiveDataSample")
    }

    // MARK: Input

    /// Writes `line` and a newline to the app's standard input.
    func send(_ line: String) throws {
        let closed = lock.withLock { inputClosed }
        guard !closed else { throw Failure(description: "cannot send \"\(line)\": the input is closed") }
        do {
            try input.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            throw Failure(description: "cannot send \"\(line)\" (\(error)); the app's output so far:\n\(transcript)")
        }
    }

    /// Closes the app's standard input: the end of its input, on which it quits.
    func closeInput() {
        let wasClosed = lock.withLock {
            defer { inputClosed = true }
            return inputClosed
        }
        if !wasClosed { try? input.close() }
    }

    // MARK: Output

    /// Everything the app printed so far on its standard output.
    var outputSoFar: String { lock.withLock { String(decoding: outputBytes, as: UTF8.self) } }

    /// The output before the mark: everything up to the end of what the last wait found.
    var outputBeforeMark: String { lock.withLock { String(decoding: outputBytes.prefix(mark), as: UTF8.self) } }

    /// Moves the mark to the end of the output so far: later waits look only at what comes next.
    func moveMarkToEnd() {
        lock.withLock { mark = outputBytes.count }
    }

    /// Waits until the output after the mark contains `text`.
    ///
    /// - Parameters:
    ///   - text: the text awaited.
    ///   - movingMark: whether to move the mark to the end of the text found (the default), so
    ///     the next wait looks only at what came after it; false to look again from the same place
    ///     (for lines whose order does not matter).
    /// - Returns: the output from the mark up to and including `text`.
    @discardableResult
    func waitFor(_ text: String, movingMark: Bool = true) async throws -> String {
        try await wait(for: "\"\(text)\"", movingMark: movingMark) { $0.firstRange(of: text) }.segment
    }

    /// Waits until the output after the mark has a whole line for which `predicate` holds, and
    /// moves the mark to the end of that line.
    ///
    /// - Parameters:
    ///   - description: the line awaited, in words, for the failure.
    ///   - predicate: whether a line (without its newline) is the one awaited.
    /// - Returns: the line.
    @discardableResult
    func waitForLine(_ description: String, where predicate: @escaping @Sendable (Substring) -> Bool) async throws -> String {
        try await wait(for: description, movingMark: true) { text in
            var start = text.startIndex
            while let newline = text[start...].firstIndex(of: "\n") {
                if predicate(text[start..<newline]) { return start..<newline }
                start = text.index(after: newline)
            }
            return nil
        }.matched
    }

    private func wait(
        for description: String, movingMark: Bool, _ find: @escaping @Sendable (String) -> Range<String.Index>?
    ) async throws -> Match {
        let id = lock.withLock {
            nextWaiter += 1
            return nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Match, any Error>) in
                let outcome: Result<Match, any Error>? = lock.withLock {
                    let waiter = Waiter(
                        description: description, start: mark, movesMark: movingMark, find: find, continuation: continuation)
                    if let match = matchLocked(waiter) { return .success(match) }
                    if outputEnded { return .failure(failureLocked("the app's output ended without \(description)")) }
                    if Task.isCancelled { return .failure(failureLocked("cancelled (the time limit?) waiting for \(description)")) }
                    waiters[id] = waiter
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let (waiter, failure) = lock.withLock {
                (waiters.removeValue(forKey: id), failureLocked("cancelled (the time limit?) waiting for \(description)"))
            }
            waiter?.continuation.resume(throwing: failure)
        }
    }

    /// What `waiter` looks for, if it is in the output; moves the mark when the waiter does. Hold `lock`.
    private func matchLocked(_ waiter: Waiter) -> Match? {
        let text = String(decoding: outputBytes[waiter.start...], as: UTF8.self)
        guard let range = waiter.find(text) else { return nil }
        if waiter.movesMark {
            mark = max(mark, waiter.start + text.utf8.distance(from: text.startIndex, to: range.upperBound))
        }
        return Match(segment: String(text[..<range.upperBound]), matched: String(text[range]))
    }

    /// A failure with the output and errors so far. Hold `lock`.
    private func failureLocked(_ reason: String) -> Failure {
        let status = exitStatus.map { "; exit status \($0)" } ?? ""
        return Failure(description: """
            \(reason)\(status)
            command line: LiveDataSample \(arguments.joined(separator: " "))
            output so far (the mark after \(mark) bytes):
            \(String(decoding: outputBytes, as: UTF8.self))
            errors so far:
            \(String(decoding: errorBytes, as: UTF8.self))
            """)
    }

    private var transcript: String {
        lock.withLock { String(decoding: outputBytes, as: UTF8.self) + String(decoding: errorBytes, as: UTF8.self) }
    }

    /// Reads what the app writes on standard output (or error) on a thread of its own, blocked in
    /// each read, until the end of the pipe: once the app and everything it started closed it.
    private func startReading(isError: Bool) {
        guard let handle = isError ? process.errors : process.output else { return }
        Thread.detachNewThread { [weak self] in
            while true {
                let data = handle.availableData
                guard let self else { return }
                self.received(data, isError: isError)
                if data.isEmpty { return }
            }
        }
    }

    private func received(_ data: Data, isError: Bool) {
        var resumed: [(CheckedContinuation<Match, any Error>, Result<Match, any Error>)] = []
        var finished: [CheckedContinuation<Void, Never>] = []
        lock.withLock {
            if isError {
                if data.isEmpty { errorsEnded = true } else { errorBytes.append(data) }
            } else if data.isEmpty {
                outputEnded = true
                for (id, waiter) in waiters.sorted(by: { $0.key < $1.key }) {
                    waiters[id] = nil
                    resumed.append((waiter.continuation, .failure(failureLocked("the app's output ended without \(waiter.description)"))))
                }
            } else {
                outputBytes.append(data)
                for (id, waiter) in waiters.sorted(by: { $0.key < $1.key }) {
                    guard let match = matchLocked(waiter) else { continue }
                    waiters[id] = nil
                    resumed.append((waiter.continuation, .success(match)))
                }
            }
            finished = takeFinishersLocked()
        }
        for (continuation, result) in resumed { continuation.resume(with: result) }
        for continuation in finished { continuation.resume() }
    }

    private func exited(_ status: Int32) {
        let finished = lock.withLock {
            exitStatus = status
            return takeFinishersLocked()
        }
        for continuation in finished { continuation.resume() }
    }

    /// The continuations of ``finish()`` once the app exited and both its outputs ended. Hold `lock`.
    private func takeFinishersLocked() -> [CheckedContinuation<Void, Never>] {
        guard exitStatus != nil, outputEnded, errorsEnded else { return [] }
        defer { finishers = [] }
        return finishers
    }

    // MARK: Exit

    /// Kills the app with SIGKILL, as `kill -9` or a crash would: nothing of it runs afterwards.
    /// Waits until it has exited and its outputs ended.
    ///
    /// - Returns: everything printed on standard output.
    func kill() async -> String {
        process.send(SIGKILL)
        return await finish().output
    }

    /// Closes the app's input (on which it quits) and waits until it exits and its outputs end;
    /// a cancelled test (its time limit) terminates it.
    ///
    /// - Returns: the exit status, everything printed on standard output, and on standard error.
    func finish() async -> (status: Int32, output: String, errors: String) {
        closeInput()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = lock.withLock {
                    guard exitStatus == nil || !outputEnded || !errorsEnded else { return true }
                    finishers.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            process.send(SIGTERM)
        }
        let result = lock.withLock {
            (exitStatus ?? -1, String(decoding: outputBytes, as: UTF8.self), String(decoding: errorBytes, as: UTF8.self))
        }
        // Under `swift test --sanitize=thread` the app is built with the sanitizer too; its
        // reports go to the app's standard error, which only this test sees.
        #expect(!result.2.contains("ThreadSanitizer"), "the app reported a data race:\n\(result.2)")
        return result
    }
}

// MARK: - The app's screens

extension SampleProcess {
    /// The end of the channel list's status line once it shows the server's data.
    static let channelsFresh = "· fresh │ N open"
    /// The end of a chat's status line once it shows the server's data.
    static let chatFresh = "· fresh │ type to send"

    /// Waits until the channel list shows the server's data.
    func waitForChannels() async throws {
        try await waitFor(Self.channelsFresh)
    }

    /// Sends `line` and waits until the app echoes it (`> line`), which moves the mark past the
    /// echo: what the app printed before reading the line stays before the mark.
    func enter(_ line: String) async throws {
        try send(line)
        try await waitFor("> \(line)")
    }

    /// Opens the chat of `channel` from the channel list and waits until it shows the server's data.
    func openChat(_ channel: String) async throws {
        try await waitForChannels()
        try await enter("/open \(channel)")
        try await waitFor(Self.chatFresh)
    }

    /// Waits for the chat line of `sender` saying `text`, sent (not pending, not failed): ` 11:10 alan: text`.
    @discardableResult
    func waitForSentLine(_ sender: String, _ text: String) async throws -> String {
        try await waitForLine("the sent line \"\(sender): \(text)\"") { line in
            line.hasPrefix(" ") && line.hasSuffix(" \(sender): \(text)") && Self.isChatLine(line)
        }
    }

    /// Whether `line` looks like a chat message: a mark, a time, a sender, a text.
    static func isChatLine(_ line: Substring) -> Bool {
        line.wholeMatch(of: /[ …!](\p{L}+ )?\d\d:\d\d [a-z]+: .*/) != nil
    }
}
#endif
