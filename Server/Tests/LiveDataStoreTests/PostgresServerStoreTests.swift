import LiveDataPostgres
import LiveSocial
import LiveSocialServer
import ServerTestSupport
import Testing

/// What the PostgreSQL store sends later: writes go with the next read or the commit, and the
/// counters and the clock a write transaction took are written back at its commit. A failure or
/// a rollback must come out as it would if every statement had been sent at once.
@Suite("PostgreSQL store transactions", .serialized)
struct PostgresServerStoreTests {
    private static let change = ChangeRecord(SocialRecordKey(.user, "ada"), isRemoval: false, scope: nil)

    @Test func aWriteThatFailsWhenTheCommitSendsItFailsTheTransactionAndKeepsNothing() async throws {
        let (store, location) = try await Self.open()
        defer { Task { await Self.close(store, location) } }
        let (before, failed, after) = try await store.thread.perform {
            () throws -> (Int64, Bool, (sequence: Int64, counter: Bool, answer: [UInt8]?)) in
            let before = try store.latestSequence()
            var failed = false
            do {
                try store.transaction {
                    _ = try store.appendChange(Self.change)
                    _ = try store.nextCounter("test")
                    _ = try store.nextTimestamp(clockTime: 5)
                    try store.storeIdempotentAnswer([1], key: "k", userId: "ada", at: 1, keepingAfter: 0)
                    // The same key again: its INSERT breaks the primary key, sent only with the COMMIT.
                    try store.storeIdempotentAnswer([2], key: "k", userId: "ada", at: 1, keepingAfter: 0)
                }
            } catch is PostgresStoreError {
                failed = true
            }
            let after = (try store.latestSequence(), try store.hasCounter("test"), try store.idempotentAnswer(key: "k", userId: "ada"))
            return (before, failed, after)
        }
        #expect(failed)
        #expect(after.sequence == before)
        #expect(!after.counter)
        #expect(after.answer == nil)
        // The store goes on, and the failed transaction's number is taken again.
        let next = try await store.thread.perform { try store.transaction { try store.appendChange(Self.change) } }
        #expect(next == before + 1)
    }

    @Test func aSavepointRolledBackGivesBackItsNumbersIdsAndTimes() async throws {
        let (store, location) = try await Self.open()
        defer { Task { await Self.close(store, location) } }
        struct Taken: Sendable, Equatable {
            var sequences: [Int64] = []
            var ids: [Int] = []
            var times: [Double] = []
        }
        let taken = try await store.thread.perform { () throws -> Taken in
            try store.transaction {
                var taken = Taken()
                taken.sequences.append(try store.appendChange(Self.change))
                taken.ids.append(try store.nextCounter("test"))
                taken.times.append(try store.nextTimestamp(clockTime: 100))
                struct Refused: Error {}
                _ = try? store.transaction { () throws -> Void in
                    _ = try store.appendChange(Self.change)
                    _ = try store.nextCounter("test")
                    _ = try store.nextTimestamp(clockTime: 200)
                    throw Refused()
                }
                taken.sequences.append(try store.appendChange(Self.change))
                taken.ids.append(try store.nextCounter("test"))
                taken.times.append(try store.nextTimestamp(clockTime: 100))
                return taken
            }
        }
        #expect(taken.sequences[1] == taken.sequences[0] + 1)
        #expect(taken.ids == [1, 2])
        #expect(taken.times == [100, 100 + 0.001])
        // Committed as taken: the log has exactly those entries, and the next write follows them.
        let (entries, next) = try await store.thread.perform { () throws -> ([Int64], Int) in
            let entries = try store.changeEntries(after: 0, scope: .all, limit: 10).map(\.sequence)
            return (entries, try store.transaction { try store.nextCounter("test") })
        }
        #expect(entries == taken.sequences)
        #expect(next == 3)
    }

    private static func open() async throws -> (PostgresServerStore, PostgresLocation) {
        let location = try await TestPostgres.makeDatabase()
        return (try await PostgresServerStore.open(location), location)
    }

    private static func close(_ store: PostgresServerStore, _ location: PostgresLocation) async {
        try? await store.thread.perform { store.close() }
        await TestPostgres.dropDatabase(location)
    }
}
