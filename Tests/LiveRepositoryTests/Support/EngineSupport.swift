import Foundation
import TestSupport
@testable import LiveRepository

/// Shared helpers for the engine's tests: stores, settling, a scripted single-record server.

/// An in-memory store with the `notes` table, holding `notes`.
@MainActor
func makeNoteStore(_ notes: [Note] = []) async throws -> LiveStore {
    let store = try LiveStore(location: .inMemory, migrations: Note.migrations)
    if !notes.isEmpty { try await store.write { try $0.upsert(contentsOf: notes) } }
    return store
}

/// A store on a file in `directory` with the `notes` table, holding `notes`: it has a reading
/// connection beside its writer.
@MainActor
func makeNoteFileStore(_ notes: [Note] = [], in directory: TemporaryDirectory) async throws -> LiveStore {
    let store = try LiveStore(location: .file(directory.file("notes.sqlite")), migrations: Note.migrations)
    if !notes.isEmpty { try await store.write { try $0.upsert(contentsOf: notes) } }
    return store
}

/// Holds the store's queue until the returned semaphore is signalled: a read that waits on it
/// is queued behind the work queued so far, and everything queued after it waits for it.
func holdQueue(of store: LiveStore) -> DispatchSemaphore {
    let gate = DispatchSemaphore(value: 0)
    store.read({ _ in gate.wait() }, completion: { (_: Result<Void, any Error>) in })
    return gate
}

/// Waits until the work already queued on the store and on its reader (the reads ahead of a
/// scrolling list), and the main-actor deliveries it schedules, has run: each round trip queues
/// a read behind everything queued so far on each queue, and its continuation runs on the main
/// actor after the completions those earlier reads posted there.
@MainActor
func settle(_ store: LiveStore, rounds: Int = 4) async {
    for _ in 0..<rounds {
        _ = try? await store.read { _ in 0 }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            store.readBeside({ _ in 0 }, completion: { _ in continuation.resume() })
        }
    }
}

/// The ids of the notes matching `sql` (a WHERE clause body), in `ORDER BY rank, id`, read
/// directly from the cache.
func noteIDs(in store: LiveStore, where condition: String = "1", _ bindings: [SQLiteValue] = [],
             ascending: Bool = true) async throws -> [String] {
    let direction = ascending ? "ASC" : "DESC"
    return try await store.read { connection in
        try connection.query("SELECT id FROM notes WHERE \(condition) ORDER BY rank \(direction), id \(direction)",
                             bindings) { $0.string(0) }
    }
}

/// A scripted server for one record: each request waits until the test answers it.
actor RecordServer<Record: CacheRecord> {
    private var waiting: [CheckedContinuation<Record?, any Error>] = []
    private var requestWaiters: [CheckedContinuation<Void, Never>] = []
    private(set) var requestCount = 0

    func fetch() async throws -> Record? {
        requestCount += 1
        return try await withCheckedThrowingContinuation { continuation in
            waiting.append(continuation)
            let waiters = requestWaiters
            requestWaiters = []
            waiters.forEach { $0.resume() }
        }
    }

    func awaitRequest() async {
        while waiting.isEmpty { await withCheckedContinuation { requestWaiters.append($0) } }
    }

    /// Answers the oldest pending request.
    func answer(_ result: Result<Record?, any Error>) async {
        await awaitRequest()
        waiting.removeFirst().resume(with: result)
    }
}


/// A thread-safe counter for `@Sendable` closures (migrations, write bodies).
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = 0
    func increment() { lock.withLock { storage += 1 } }
    var value: Int { lock.withLock { storage } }
}
