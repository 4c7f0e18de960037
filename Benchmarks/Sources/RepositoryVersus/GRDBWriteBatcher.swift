import Foundation
import GRDB
import LiveSocial

/// GRDB's writes batched the way `LiveStore.enqueueWrite` batches them: messages queued while
/// one transaction runs are committed together in the next `pool.asyncWrite` (one transaction),
/// at most ``maximumBatch`` at a time, so that GRDB's `ValueObservation` sees one change per
/// transaction just as the live collection does.
///
/// `@unchecked Sendable`: `pending`, `drainScheduled` and `closed` are read and written only while holding
/// `lock`; `pool` is GRDB's own `Sendable` pool.
final class GRDBWriteBatcher: @unchecked Sendable {
    /// The most messages committed in one transaction (`LiveStore.maximumBatch`).
    static let maximumBatch = 16_384

    private let pool: DatabasePool
    private let stop: StopFlag
    private let lock = NSLock()
    private var pending: [Entry] = []
    private var drainScheduled = false
    private var closed = false

    /// Writes into `pool`; once `stop` is set, queued messages are skipped.
    init(pool: DatabasePool, stop: StopFlag) {
        self.pool = pool
        self.stop = stop
    }

    /// Queues the upsert of `message`; `completion` runs on a GRDB queue after its transaction
    /// commits. A failing write stops the run.
    func enqueue(_ message: Message, completion: @escaping @Sendable () -> Void = {}) {
        lock.withLock {
            pending.append((message, completion))
            if !drainScheduled, !closed { scheduleDrain() }
        }
    }

    /// Starts no more transactions: call it before closing the pool, which then waits for the
    /// ones already started (the pool's writer queue is serial).
    func close() {
        lock.withLock { closed = true }
    }

    /// Starts one transaction for the messages queued when it begins; if more are left then, the
    /// next is started at once, as `LiveStore` does. Called with `lock` held, so that ``close()``
    /// cannot slip between the check and the start (`asyncWrite` only queues the work).
    private func scheduleDrain() {
        drainScheduled = true
        let batch = Batch()
        let stop = self.stop
        pool.asyncWrite({ [self] db in
            let taken = lock.withLock {
                let taken = Array(pending.prefix(Self.maximumBatch))
                pending.removeFirst(taken.count)
                drainScheduled = false
                if !pending.isEmpty, !closed { scheduleDrain() }
                return taken
            }
            batch.entries = taken
            // Prepared once and reused, as GRDB advises for a statement run many times (the
            // store prepares its upsert once per transaction).
            let statement = try db.cachedStatement(sql: GRDBSide.upsertSQL)
            for entry in taken where !stop.isStopped {
                try statement.execute(arguments: GRDBSide.arguments(entry.message))
            }
        }, completion: { _, result in
            if case .failure(let error) = result { fatalError("asyncWrite: \(error)") }
            for entry in batch.entries { entry.completion() }
        })
    }

    private typealias Entry = (message: Message, completion: @Sendable () -> Void)

    /// The messages of one transaction, from its body to its completion.
    ///
    /// `@unchecked Sendable`: set in the transaction's body and read in its completion, which
    /// GRDB runs one after the other on the pool's serial writer queue.
    private final class Batch: @unchecked Sendable {
        var entries: [Entry] = []
    }
}
