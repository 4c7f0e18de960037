import BenchmarkSupport
import Foundation
import LiveRepository
import LiveSocial

/// Process A: opens its own `LiveStore` on the shared file and commits messages 1…count to it.
///
///     CrossProcessVersus writer spaced FILE COUNT MIN_MICROSECONDS MAX_MICROSECONDS
///     CrossProcessVersus writer burst FILE COUNT
///     CrossProcessVersus writer floor FIFO COUNT MIN_MICROSECONDS MAX_MICROSECONDS  (see ``Floor``)
///
/// `spaced`: one `store.write` (one transaction) per message, then a pause of a seeded random
/// length between the two bounds (random so that the commits do not keep one phase against a
/// watcher that polls). `burst`: every message queued at once with `enqueueWrite`, which the store
/// commits in shared transactions, as fast as it can. Each message's text is the shared clock's
/// time read in its transaction, just before its upsert, and, when spaced, the time read just
/// before its commit (``Fixture/stampCommit(_:in:)``). Prints
/// `committed TIME` (the shared clock when the last write's completion ran) on standard output.
@MainActor
enum Writer {
    static func run(_ arguments: [String]) async throws {
        if arguments.first == "floor" { return try Floor.write(Array(arguments.dropFirst())) }
        guard arguments.count >= 3, let count = Int(arguments[2]) else { throw Usage.wrong(arguments) }
        let url = URL(fileURLWithPath: arguments[1])
        let store = try Fixture.open(url)
        switch arguments[0] {
        case "spaced":
            guard arguments.count == 5, let low = Int(arguments[3]), let high = Int(arguments[4]), low <= high else {
                throw Usage.wrong(arguments)
            }
            var random = SeededGenerator(seed: 15)
            for number in 1...max(1, count) {
                try await store.write { transaction in
                    try transaction.upsert(Fixture.message(number, stamp: SharedClock.now()))
                    try Fixture.stampCommit(number, in: transaction)
                }
                let pause = low + Int(random.next() % UInt64(high - low + 1))
                try await Task.sleep(for: .microseconds(pause))
            }
        case "burst":
            let done = FirstCallback<Void>()
            for number in 1...max(1, count) {
                store.enqueueWrite({ try $0.upsert(Fixture.message(number, stamp: SharedClock.now())) }) { error in
                    if let error { fatalError("enqueueWrite: \(error)") }
                    if number == count { MainActor.assumeIsolated { done.fire(()) } }
                }
            }
            await done.wait()
        default:
            throw Usage.wrong(arguments)
        }
        let committed = SharedClock.now()
        print("committed \(committed)")
        await store.close()
    }

    enum Usage: Error {
        case wrong([String])
    }
}
