import Dispatch
import Foundation
@testable import LiveRepository
import TestSupport
import Testing

/// The store's reading connection: the reads on demand of the live collections
/// (`LiveStore.readNow`), which never wait for the store's queue, in a file and in memory alike.
@MainActor
@Suite(.timeLimit(.minutes(2))) struct StoreReaderTests {
    @Test(arguments: TestDatabase.allCases)
    func aReadOnDemandSeesTheLastCommit(kind: TestDatabase) async throws {
        let (store, directory) = try kind.makeStore()
        for round in 1...3 {
            try await store.write { try $0.upsert(Note(id: "n\(round)", rank: round, body: "written")) }
            #expect(try store.readNow(Self.ids) == (1...round).map { "n\($0)" })
        }
        _ = directory
    }

    @Test(arguments: TestDatabase.allCases)
    func aReadOnDemandDoesNotWaitForTheStoresQueue(kind: TestDatabase) async throws {
        let (store, directory) = try kind.makeStore()
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "committed")) }
        let gate = holdQueue(of: store)
        // The queue stays held until the read is over (or could not finish).
        let read = await Self.readOnDemandInBackground(store)
        gate.signal()
        #expect(read == .some(["a"]), "the read waited for the store's queue")
        await settle(store)
        _ = directory
    }

    /// A file is in WAL mode: a read during a write transaction sees the last commit at once. A
    /// database in memory has no WAL: the read waits for the transaction's commit, and sees it.
    @Test(arguments: TestDatabase.allCases)
    func aReadOnDemandDuringAWriteTransaction(kind: TestDatabase) async throws {
        let (store, directory) = try kind.makeStore()
        try await store.write { try $0.upsert(Note(id: "a", rank: 1, body: "committed")) }
        let (entered, gate) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let committed = Deliveries<Bool>()
        store.enqueueWrite({ transaction in
            try transaction.upsert(Note(id: "b", rank: 2, body: "in the transaction"))
            entered.signal()
            gate.wait()
        }, completion: { error in committed.record(error == nil) })
        await Self.wait(for: entered)
        switch kind {
        case .file:
            let read = await Self.readOnDemandInBackground(store)
            gate.signal()
            #expect(read == .some(["a"]), "a WAL reader reads beside the writer")
        case .inMemory:
            let started = DispatchSemaphore(value: 0)
            let reading = Task { await Self.readOnDemandInBackground(store, started: started) }
            await Self.wait(for: started)
            gate.signal()
            #expect(await reading.value == .some(["a", "b"]), "the read waits for the commit and sees it")
        }
        #expect(try await committed.next() == true)
        _ = directory
    }

    @Test func everyStoreInMemoryHasADatabaseOfItsOwn() async throws {
        let (first, _) = try TestDatabase.inMemory.makeStore()
        let (second, _) = try TestDatabase.inMemory.makeStore()
        try await first.write { try $0.upsert(Note(id: "first", rank: 1, body: "only in the first")) }
        #expect(try first.readNow(Self.ids) == ["first"])
        #expect(try second.readNow(Self.ids) == [])
        #expect(try await second.read(Self.ids) == [])
    }

    @Test func aClosedStoreInMemoryFailsItsReadsOnDemand() async throws {
        let (store, _) = try TestDatabase.inMemory.makeStore()
        await store.close()
        #expect(throws: SQLiteError.closed) { try store.readNow(Self.ids) }
    }

    // MARK: Helpers

    private nonisolated static let ids: @Sendable (SQLiteConnection) throws -> [String] = { connection in
        try connection.query("SELECT id FROM notes ORDER BY id") { $0.string(0) }
    }

    /// Runs `store.readNow` on another thread (signalling `started` just before) and returns what
    /// it read, or nil when it has not returned within 20 seconds: a bound against a hang only.
    private static func readOnDemandInBackground(
        _ store: LiveStore, started: DispatchSemaphore? = nil
    ) async -> [String]?? {
        let result = Locked<[String]??>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            started?.signal()
            let read = try? store.readNow(ids)
            result.withLock { $0 = .some(read) }
            done.signal()
        }
        let finished = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: done.wait(timeout: .now() + 20) == .success) }
        }
        return finished ? result.withLock { $0 } : nil
    }

    /// Waits, off the main actor, until `semaphore` is signalled.
    private static func wait(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                semaphore.wait()
                continuation.resume()
            }
        }
    }
}
