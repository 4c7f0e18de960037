import Foundation
import LiveRepository

/// The helper's commands over a `LiveStore` file (see `main.swift`).
enum StoreCommands {
    /// The command named `name`, or nil: it takes the arguments after its name and returns the
    /// exit status.
    static func command(named name: String) -> (@Sendable ([String]) async -> Int32)? {
        switch name {
        case "store-write": { await write($0) }
        case "store-latency": { await StoreLatency.run($0) }
        case "store-watch": { await StoreWakeCommands.watch($0) }
        case "store-commit-and-die": { await StoreWakeCommands.commitAndDie($0) }
        case "store-commit-silently-and-die": { await StoreWakeCommands.commitSilentlyAndDie($0) }
        default: nil
        }
    }

    /// `store-write <file> <count> [--first N] [--pause-ms N] [--stamp] [--burst [--fail-every N]]`
    ///
    /// Opens a `LiveStore` on `<file>` (the `notes` table of the engine's tests) and writes the
    /// notes `p<first>`... `p<first+count-1>` with ranks `first`... (1 by default), each in its
    /// own write, printing `wrote p<rank>` once it committed. `--pause-ms` waits between writes;
    /// `--stamp` puts the monotonic clock's nanoseconds (`DispatchTime`, the same in every
    /// process) in each note's body just before its write, for latency measurements.
    ///
    /// `--burst` queues every write at once (`enqueueWrite`, so the store commits them in
    /// batches) and prints a line per write as it completes; with `--fail-every N`, the writes
    /// whose rank is a multiple of N upsert their note and then throw, and print `failed p<rank>`.
    static func write(_ arguments: [String]) async -> Int32 {
        guard arguments.count >= 2, let count = Int(arguments[1]) else {
            return usage("store-write <file> <count> [--first N] [--pause-ms N] [--stamp] [--burst [--fail-every N]]")
        }
        let first = option("--first", in: arguments).flatMap(Int.init) ?? 1
        let pause = option("--pause-ms", in: arguments).flatMap(Int.init) ?? 0
        let stamp = arguments.contains("--stamp")
        do {
            let store = try LiveStore(
                location: .file(URL(fileURLWithPath: arguments[0])), migrations: StoreNote.migrations,
                externalChanges: .off)
            if arguments.contains("--burst") {
                let failEvery = option("--fail-every", in: arguments).flatMap(Int.init) ?? 0
                await burst(into: store, ranks: first..<(first + count), failEvery: failEvery)
                await store.close()
                return 0
            }
            for rank in first..<(first + count) {
                let body = stamp ? String(DispatchTime.now().uptimeNanoseconds) : "from the helper"
                try await store.write { try $0.upsert(StoreNote(id: "p\(rank)", rank: rank, body: body)) }
                FileHandle.standardOutput.write(Data("wrote p\(rank)\n".utf8))
                if pause > 0 { try await Task.sleep(for: .milliseconds(pause)) }
            }
            await store.close()
            return 0
        } catch {
            FileHandle.standardError.write(Data("store-write: \(error)\n".utf8))
            return 1
        }
    }

    struct Refused: Error {}

    /// Queues a write per rank at once and returns when all completed.
    private static func burst(into store: LiveStore, ranks: Range<Int>, failEvery: Int) async {
        let remaining = Remaining(ranks.count)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for rank in ranks {
                let fails = failEvery > 0 && rank % failEvery == 0
                store.enqueueWrite({ transaction in
                    try transaction.upsert(StoreNote(id: "p\(rank)", rank: rank, body: "from the helper"))
                    if fails { throw Refused() }
                }, completion: { error in
                    FileHandle.standardOutput.write(Data("\(error == nil ? "wrote" : "failed") p\(rank)\n".utf8))
                    if remaining.done() { continuation.resume() }
                })
            }
        }
    }

    /// Counts completions down; `done()` is true for the last. `@unchecked Sendable`: `lock`
    /// guards `count`.
    private final class Remaining: @unchecked Sendable {
        private let lock = NSLock()
        private var count: Int
        init(_ count: Int) { self.count = count }
        func done() -> Bool { lock.withLock { count -= 1; return count == 0 } }
    }

    /// The value after `name` in `arguments`, if any.
    static func option(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    static func usage(_ text: String) -> Int32 {
        FileHandle.standardError.write(Data("usage: LiveTestHelper \(text)\n".utf8))
        return 64
    }
}
