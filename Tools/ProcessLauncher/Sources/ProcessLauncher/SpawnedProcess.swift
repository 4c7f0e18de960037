import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`: its standard streams inherited, on /dev/null or on
/// pipes; every other descriptor closed in the child; its end awaited by a thread of its own
/// blocked in `waitpid` for its pid alone (no `SIGCHLD` handler, no `waitpid(-1)`: other code of
/// the process may start and reap children of its own).
///
/// Why not Foundation's `Process`: on Linux, swift-corelibs-foundation's `Process.run()` sometimes
/// crashes the parent (SIGSEGV in `memcpy`): to find the highest open descriptor it copies the
/// whole 256-byte `d_name` of each `/proc/self/fd` entry and reads past glibc's `readdir` buffer.
/// Fixed by swift-corelibs-foundation pull request 5472, which Swift 6.3.1 does not have. Once the
/// toolchain has that fix, this package can go and its users can go back to `Process`. A copy of
/// the main package's `Tests/TestSupport/SpawnedProcess.swift` (a test target, which no other
/// package can import): the Server package (its tests and `ServerVersus`) and the Benchmarks
/// package (`CrossProcessVersus` and `RepositoryVersus`) start their child processes with it.
///
/// `@unchecked Sendable`: `condition` (an `NSCondition`, also the lock) guards `ended`, `waiters`
/// and `handlers`; the other properties are constants set in `init`. Waiters and handlers are
/// called after unlocking.
public final class SpawnedProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable, Equatable {
        /// The parent's own descriptor.
        case inherit
        /// `/dev/null`.
        case nullDevice
        /// A new pipe, whose other end is the parent's ``SpawnedProcess/input``,
        /// ``SpawnedProcess/output`` or ``SpawnedProcess/errors``.
        case pipe
        /// For standard error only: wherever standard output goes (`2>&1`).
        case standardOutput
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (`SIGKILL` is 9).
        case signaled(Int32)
        /// Its status was lost: something else in this process reaped it first (a `waitpid(-1)`,
        /// or `SIGCHLD` set to `SIG_IGN`).
        case unknown

        /// The exit status, or the signal's number (as Foundation's `Process.terminationStatus`); -1 when unknown.
        public var status: Int32 {
            switch self {
            case .exited(let status), .signaled(let status): status
            case .unknown: -1
            }
        }

        /// The meaning of a `waitpid` status.
        init(waitStatus: Int32) {
            let signal = waitStatus & 0x7f
            if signal == 0 {
                self = .exited((waitStatus >> 8) & 0xff)
            } else if signal != 0x7f {
                self = .signaled(signal)
            } else {
                self = .unknown // Stopped, not ended: `waitpid` without `WUNTRACED` never says so.
            }
        }
    }

    /// The executable's path (also the child's `argv[0]`).
    public let executable: String
    /// The arguments after the executable.
    public let arguments: [String]
    /// The child's pid.
    public let processIdentifier: Int32
    /// The writing end of the child's standard input, when it is a ``Stream/pipe``.
    public let input: FileHandle?
    /// The reading end of the child's standard output, when it is a ``Stream/pipe``.
    public let output: FileHandle?
    /// The reading end of the child's standard error, when it is a ``Stream/pipe``.
    public let errors: FileHandle?

    private let condition = NSCondition()
    private var ended: Termination?
    private var waiters: [CheckedContinuation<Termination, Never>] = []
    private var handlers: [@Sendable (Termination) -> Void] = []

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: the child's whole environment; nil for this process's.
    ///   - workingDirectory: the child's working directory; nil for this process's.
    ///   - standardInput, standardOutput, standardError: where each stream goes
    ///     (``Stream/standardOutput`` is for standard error only).
    /// - Throws: ``SpawnedProcessError`` when the child cannot be started (a missing executable,
    ///   say) or a stream is set to what it cannot be.
    public init(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, standardInput: Stream = .inherit, standardOutput: Stream = .inherit,
        standardError: Stream = .inherit
    ) throws {
        let started = try Self.spawn(
            executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
            streams: [standardInput, standardOutput, standardError])
        self.executable = executable
        self.arguments = arguments
        processIdentifier = started.pid
        input = started.parentEnds[0]
        output = started.parentEnds[1]
        errors = started.parentEnds[2]
        // The thread keeps this object until the child ended.
        Thread.detachNewThread { self.awaitEnd() }
    }

    /// Whether the child has not been seen to end yet.
    public var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended == nil
    }

    /// Sends `signal` (`SIGTERM`, `SIGKILL`, `SIGINT`…) to the child, unless it has ended and
    /// been reaped (its pid could then be another process's).
    ///
    /// - Returns: whether the signal was sent.
    @discardableResult
    public func send(_ signal: Int32) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        // Reaping takes the lock too: while it is held, the pid is still the child's.
        return ended == nil && kill(processIdentifier, signal) == 0
    }

    /// Asks the child to stop: ``send(_:)`` with `SIGTERM`, as Foundation's `Process.terminate()`.
    public func terminate() {
        send(SIGTERM)
    }

    /// Calls `handler` once the child has ended, on the thread that saw it end; at once, on the
    /// caller's thread, if it already has.
    public func onTermination(_ handler: @escaping @Sendable (Termination) -> Void) {
        condition.lock()
        guard let ended else {
            handlers.append(handler)
            condition.unlock()
            return
        }
        condition.unlock()
        handler(ended)
    }

    /// How the child ended, once it has.
    public func termination() async -> Termination {
        await withCheckedContinuation { continuation in
            condition.lock()
            guard let ended else {
                waiters.append(continuation)
                condition.unlock()
                return
            }
            condition.unlock()
            continuation.resume(returning: ended)
        }
    }

    /// Blocks the calling thread until the child has ended; how it ended. For synchronous code
    /// only: in a task, await ``termination()`` instead.
    public func waitUntilExit() -> Termination {
        condition.lock()
        defer { condition.unlock() }
        while ended == nil { condition.wait() }
        return ended ?? .unknown
    }

    /// Waits for the child's end without reaping it, then reaps it under the lock (see ``send(_:)``)
    /// and tells the waiters and handlers.
    private func awaitEnd() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        condition.lock()
        var status: Int32 = 0
        var reaped = waitpid(processIdentifier, &status, 0)
        while reaped < 0, errno == EINTR { reaped = waitpid(processIdentifier, &status, 0) }
        let termination = reaped == processIdentifier ? Termination(waitStatus: status) : .unknown
        ended = termination
        let waiters = self.waiters
        let handlers = self.handlers
        self.waiters = []
        self.handlers = []
        condition.broadcast()
        condition.unlock()
        for waiter in waiters { waiter.resume(returning: termination) }
        for handler in handlers { handler(termination) }
    }
}

/// Why a ``SpawnedProcess`` could not be started.
public struct SpawnedProcessError: Error, CustomStringConvertible {
    /// What failed, and why.
    public let description: String
}
