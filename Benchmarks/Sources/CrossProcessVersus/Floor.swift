import BenchmarkSupport
import Foundation

/// The machine's floor for the latency scenario: the wake-ups a commit's delivery needs, with
/// nothing else. Process A writes its clock's time into a named pipe at the latency scenario's
/// pace; in process B a thread blocked in `poll(2)` reads it, hands it to a serial queue (a
/// store's), which hands it to the main queue (the observer's), where it is timed. No SQLite,
/// no store: the difference between this row and the store's is the library's work, and its
/// tail is what the machine's scheduler adds to any such path.
///
///     CrossProcessVersus writer floor FIFO COUNT MIN_MICROSECONDS MAX_MICROSECONDS
enum Floor {
    /// Process B: makes the pipe, starts the writer, times what arrives.
    @MainActor
    static func measure(_ settings: Settings, folder: URL, log: RunLog) async throws -> Scenarios.Latency {
        let path = folder.appendingPathComponent("floor.fifo").path
        guard mkfifo(path, 0o600) == 0 else { throw FloorError.pipe(errno) }
        let readEnd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        // B's own write end keeps the pipe from reading as closed between A's writes.
        let keepOpen = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard readEnd >= 0, keepOpen >= 0 else { throw FloorError.pipe(errno) }
        let arrivals = Times()
        let stopping = StopFlag()
        let ended = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "CrossProcessVersus.floor", qos: .userInitiated)
        let thread = Thread {
            var watched = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            var stamp: UInt64 = 0
            while !stopping.isSet {
                guard poll(&watched, 1, 50) > 0 else { continue }
                while read(readEnd, &stamp, 8) == 8 {
                    let time = stamp
                    queue.async {
                        DispatchQueue.main.async {
                            let now = SharedClock.now()
                            MainActor.assumeIsolated { arrivals.milliseconds.append((Double(now) - Double(time)) / 1e6) }
                        }
                    }
                }
            }
            ended.signal()
        }
        thread.name = "CrossProcessVersus.floor"
        thread.qualityOfService = .userInitiated
        thread.start()
        log("floor: process A writes \(grouped(settings.commits)) stamps into a pipe; B's thread, a queue, then the main queue")
        let writer = try ChildProcess.start([
            "writer", "floor", path, String(settings.commits),
            String(settings.minimumPauseMicroseconds), String(settings.maximumPauseMicroseconds),
        ])
        _ = await writer.finished()
        let clock = ContinuousClock()
        let deadline = clock.now + settings.grace
        while arrivals.milliseconds.count < settings.commits, clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        stopping.set()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                ended.wait()
                continuation.resume()
            }
        }
        close(readEnd)
        close(keepOpen)
        unlink(path)
        // No transaction: A's one stamp, read just before the pipe's write, stands in both columns.
        return Scenarios.Latency(
            kind: .floor, seen: arrivals.milliseconds.count, milliseconds: arrivals.milliseconds,
            fromCommit: arrivals.milliseconds, deliveries: arrivals.milliseconds.count)
    }

    /// Process A: writes `count` stamps into the pipe at `arguments[0]`, with the latency
    /// scenario's seeded pauses.
    static func write(_ arguments: [String]) throws {
        guard arguments.count == 4, let count = Int(arguments[1]), let low = Int(arguments[2]), let high = Int(arguments[3]),
              low <= high else { throw Writer.Usage.wrong(arguments) }
        let descriptor = open(arguments[0], O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FloorError.pipe(errno) }
        defer { close(descriptor) }
        var random = SeededGenerator(seed: 15)
        for _ in 0..<max(1, count) {
            var stamp = SharedClock.now()
            guard Foundation.write(descriptor, &stamp, 8) == 8 else { throw FloorError.pipe(errno) }
            usleep(UInt32(low + Int(random.next() % UInt64(high - low + 1))))
        }
    }

    /// Set once B has what it waits for: the reading thread then ends.
    ///
    /// `@unchecked Sendable`: `lock` guards `value`.
    private final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    /// The latencies timed on the main queue, ms, in arrival order.
    @MainActor
    private final class Times {
        var milliseconds: [Double] = []
    }

    enum FloorError: Error {
        case pipe(Int32)
    }
}
