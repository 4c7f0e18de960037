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
        default: nil
        }
    }

    /// `store-write <file> <count> [--first N] [--pause-ms N] [--stamp]`
    ///
    /// Opens a `LiveStore` on `<file>` (the `notes` table of the engine's tests) and writes the
    /// notes `p<first>`... `p<first+count-1>` with ranks `first`... (1 by default), each in its
    /// own write, printing `wrote p<rank>` once it committed. `--pause-ms` waits between writes;
    /// `--stamp` puts the monotonic clock's nanoseconds (`DispatchTime`, the same in every
    /// process) in each note's body just before its write, for latency measurements.
    static func write(_ arguments: [String]) async -> Int32 {
        guard arguments.count >= 2, let count = Int(arguments[1]) else {
            return usage("store-write <file> <count> [--first N] [--pause-ms N] [--stamp]")
        }
        let first = option("--first", in: arguments).flatMap(Int.init) ?? 1
        let pause = option("--pause-ms", in: arguments).flatMap(Int.init) ?? 0
        let stamp = arguments.contains("--stamp")
        do {
            let store = try LiveStore(
                location: .file(URL(fileURLWithPath: arguments[0])), migrations: StoreNote.migrations,
                externalChanges: .off)
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
