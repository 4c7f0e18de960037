import BenchmarkSupport
import Foundation

/// The three scenarios, run from process B (this process) with process A a child.
@MainActor
enum Scenarios {
    /// What one watcher saw of the latency scenario.
    struct Latency {
        var kind: WatcherKind
        /// Whether the other watchers ran in B at the same time (the side-by-side pass), rather
        /// than this one alone.
        var besideOthers = false
        /// Of A's commits, how many the watcher saw by the end of the grace period.
        var seen: Int
        /// For each commit seen: from its stamp in A (read just before the upsert) to the
        /// observer call in B, ms.
        var milliseconds: [Double]
        /// For each commit seen: from its commit's stamp in A (read once the upsert is done,
        /// just before the change log's row and the `COMMIT`) to the observer call in B, ms.
        var fromCommit: [Double] = []
        var deliveries: Int
    }

    /// A commits `settings.commits` messages a few milliseconds apart (the same seeded pauses at
    /// every pass) while `kinds` watch in B: one alone, or several side by side.
    static func latency(_ settings: Settings, kinds: [WatcherKind], folder: URL, log: RunLog) async throws -> [Latency] {
        let url = folder.appendingPathComponent("latency-\(kinds.map(\.rawValue).joined(separator: "+")).sqlite")
        try await Fixture.create(url)
        let watchers = try kinds.map { try Watcher($0, url: url, pollMilliseconds: settings.pollMilliseconds) }
        for watcher in watchers { await watcher.arrivals.ready.wait() }
        // Let the openings settle: GRDB's observation fetches a second time once it observes.
        try await Task.sleep(for: .milliseconds(200))
        log("latency (\(kinds.map(\.rawValue).joined(separator: ", "))): process A commits \(grouped(settings.commits)) "
            + "messages, one transaction each, \(settings.minimumPauseMicroseconds / 1_000)–\(settings.maximumPauseMicroseconds / 1_000) ms apart")
        let writer = try ChildProcess.start([
            "writer", "spaced", url.path, String(settings.commits),
            String(settings.minimumPauseMicroseconds), String(settings.maximumPauseMicroseconds),
        ])
        _ = await writer.finished()
        // The contenders that can see A's commits get the grace period to see the last ones.
        let expected = watchers.filter { $0.kind != .grdb }
        try await wait(upTo: settings.grace) { expected.allSatisfy { $0.arrivals.seenAt.count >= settings.commits } }
        for watcher in watchers { await watcher.stop() }
        let stamps = try Fixture.stamps(url)
        return watchers.map { watcher in
            let seenAt = watcher.arrivals.seenAt
            return Latency(
                kind: watcher.kind, besideOthers: kinds.count > 1, seen: seenAt.count,
                milliseconds: seenAt.enumerated().map { index, time in elapsed(from: stamps[index + 1]?.beforeUpsert, to: time) },
                fromCommit: seenAt.enumerated().map { index, time in elapsed(from: stamps[index + 1]?.beforeCommit, to: time) },
                deliveries: watcher.arrivals.deliveries)
        }
    }

    /// The throughput scenario's numbers.
    struct Throughput {
        var kind: WatcherKind
        var messages: Int
        /// Messages B's live collection showed by the end of the grace period.
        var delivered: Int
        /// From the first message's stamp to A's last completion, and to B's observer call that
        /// showed the last message delivered: s.
        var writeSeconds: Double
        var deliverySeconds: Double
        var deliveries: Int
        /// From each message's stamp to the observer call that first showed it, ms.
        var milliseconds: [Double]
    }

    /// A queues `settings.burst` messages at once with `enqueueWrite`; B counts what its live
    /// collection (of `kind`) shows.
    static func throughput(_ settings: Settings, kind: WatcherKind, folder: URL, log: RunLog) async throws -> Throughput {
        let url = folder.appendingPathComponent("throughput-\(kind.rawValue).sqlite")
        try await Fixture.create(url)
        let watcher = try Watcher(kind, url: url, pollMilliseconds: settings.pollMilliseconds)
        await watcher.arrivals.ready.wait()
        log("throughput (\(kind.rawValue)): process A writes \(grouped(settings.burst)) messages as fast as it can (enqueueWrite)")
        let writer = try ChildProcess.start(["writer", "burst", url.path, String(settings.burst)])
        let lines = await writer.finished()
        try await wait(upTo: settings.burstGrace) { watcher.arrivals.seenAt.count >= settings.burst }
        await watcher.stop()
        let stamps = try Fixture.stamps(url)
        let seenAt = watcher.arrivals.seenAt
        let start = stamps[1]?.beforeUpsert ?? 0
        let committed = lines.first { $0.hasPrefix("committed ") }.flatMap { UInt64($0.dropFirst(10)) } ?? 0
        return Throughput(
            kind: kind, messages: settings.burst, delivered: seenAt.count,
            writeSeconds: elapsed(from: start, to: committed) / 1_000,
            deliverySeconds: seenAt.last.map { elapsed(from: start, to: $0) / 1_000 } ?? .nan,
            deliveries: watcher.arrivals.deliveries,
            milliseconds: seenAt.enumerated().map { index, time in elapsed(from: stamps[index + 1]?.beforeUpsert, to: time) })
    }

    /// The idle cost of one kind of watcher: CPU time over wall time.
    struct Idle {
        var kind: WatcherKind
        var stores = 1
        var cpuSeconds: Double
        var wallSeconds: Double
        /// Observer calls while measured (nothing was written).
        var calls: Int
        var share: Double { cpuSeconds / wallSeconds }
    }

    /// One child process per kind of watcher (and, for the stores with nothing observed, per
    /// number of stores), all at once, each watching an unchanging file for `settings.idleSeconds`.
    ///
    /// The windows are measured at the same time, once every child has opened its watcher and
    /// settled, and every child closes only once all of them were measured: a child's opening
    /// or closing (which opens, checkpoints and closes connections to the file, and can change
    /// what SQLite's `data_version` reports to the others) falls in no one's window.
    ///
    /// GRDB's child opens first, alone, and the others once it is ready: a `DatabasePool` that
    /// finds the file's WAL missing or empty (as the last connection's close leaves it) commits
    /// a table created and dropped, so that its readers can open. That commit is a write by a
    /// writer that does not announce itself: made while the stores open, it is found by their
    /// next slow check (up to a second later, in the window) and every store reads its change
    /// log once, which is a change to take in, not idling. Made first, with GRDB's pool keeping
    /// the WAL open, the file is unchanging for every watcher from its opening on.
    static func idle(_ settings: Settings, folder: URL, log: RunLog) async throws -> [Idle] {
        let url = folder.appendingPathComponent("idle.sqlite")
        try await Fixture.create(url)
        var runs: [(WatcherKind, Int)] = [(.none, 1)]
        for kind in [WatcherKind.store, .storePolling] { runs += settings.storeCounts.map { (kind, $0) } }
        runs += [(.live, 1), (.livePolling, 1), (.grdb, 1), (.naive, 1)]
        log("idle: \(runs.count) processes watch an unchanging file for \(settings.idleSeconds) s, measured together")
        let start = { (kind: WatcherKind, stores: Int) in
            try ChildProcess.start(
                ["idle", kind.rawValue, url.path, String(settings.idleSeconds), String(stores), String(settings.pollMilliseconds)])
        }
        let grdb = try start(.grdb, 1)
        await grdb.waitForLine(startingWith: "ready")
        let children = try runs.map { kind, stores in (kind, stores, kind == .grdb ? grdb : try start(kind, stores)) }
        for (_, _, child) in children { await child.waitForLine(startingWith: "ready") }
        for (_, _, child) in children { child.send("go") }
        for (_, _, child) in children { await child.waitForLine(startingWith: "idle ") }
        for (_, _, child) in children { child.send("stop") }
        var results: [Idle] = []
        for (kind, stores, child) in children {
            let lines = await child.finished()
            let numbers = lines.first { $0.hasPrefix("idle ") }?.split(separator: " ").dropFirst().compactMap { Double($0) } ?? []
            guard numbers.count == 3 else { fatalError("idle \(kind): \(lines)") }
            results.append(Idle(kind: kind, stores: stores, cpuSeconds: numbers[0] / 1e9, wallSeconds: numbers[1] / 1e9,
                                calls: Int(numbers[2])))
        }
        return results
    }

    /// Process B of the idle scenario (`CrossProcessVersus idle KIND FILE SECONDS STORES POLL_MS`):
    /// starts the watcher (with `STORES` stores for the kinds that observe nothing), waits for its
    /// first call and lets the opening settle, prints `ready`, and on the line `go` (standard
    /// input) prints `idle CPU_NS WALL_NS CALLS` for the next `seconds`, during which the main
    /// thread waits in its run loop, and the observer calls made meanwhile (none are expected:
    /// nothing is written). It closes the watcher on the line `stop`.
    static func idleChild(_ arguments: [String]) async throws {
        guard arguments.count == 5, let kind = WatcherKind(rawValue: arguments[0]), kind != .floor, let seconds = Int(arguments[2]),
              let stores = Int(arguments[3]), let poll = Int(arguments[4]) else {
            throw Writer.Usage.wrong(arguments)
        }
        let watcher = try Watcher(kind, url: URL(fileURLWithPath: arguments[1]), pollMilliseconds: poll, stores: stores)
        await watcher.arrivals.ready.wait()
        // Let the opening's own work (a first page, GRDB's first fetch) settle, and its threads
        // retire: libdispatch ends a worker thread 5 s after its last job (on Linux), and such an
        // exit, the opening's, fell in some windows and not in others (the child of one store,
        // which waits longest for `go`, cost more than the child of a hundred).
        try await Task.sleep(for: Self.settling)
        printLine("ready")
        await readLine(expecting: "go")
        let cpu = SharedClock.processCPU()
        let wall = SharedClock.now()
        let calls = watcher.arrivals.deliveries
        try await Task.sleep(for: .seconds(seconds))
        let cpuSpent = SharedClock.processCPU() - cpu
        let wallSpent = SharedClock.now() - wall
        printLine("idle \(cpuSpent) \(wallSpent) \(watcher.arrivals.deliveries - calls)")
        await readLine(expecting: "stop")
        await watcher.stop()
    }

    /// How long an idle child lets its opening settle before it is measured.
    static let settling = Duration.seconds(6)

    /// Prints `line` and flushes it at once (standard output is a pipe).
    private static func printLine(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Waits, off the main thread, for the line `expected` on standard input (or its end).
    private static func readLine(expecting expected: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                while let line = Swift.readLine(), line != expected {}
                continuation.resume()
            }
        }
    }

    /// Waits until `done()` or `limit` has passed, checking every 5 ms.
    private static func wait(upTo limit: Duration, until done: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !done(), clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// From `start` to `end` on the shared clock, ms; NaN without a start.
    private static func elapsed(from start: UInt64?, to end: UInt64) -> Double {
        guard let start else { return .nan }
        return (Double(end) - Double(start)) / 1e6
    }
}
