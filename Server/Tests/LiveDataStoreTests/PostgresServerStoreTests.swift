@testable import LiveDataPostgres
import LiveSocial
import LiveSocialServer
import ServerTestSupport
import Testing

/// What the PostgreSQL store sends later, and what it reads ahead: writes go with the next read
/// or the commit, and the counters and the clock a write transaction took are written back at
/// its commit; prepared reads go in one trip, and a record written reads back without one. A
/// failure, a rollback or a read must come out as it would if every statement had been sent on its own.
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

    @Test func aWriteReadsBackWhatItWroteWithoutATripAndAReadOfATableItWroteGoesToTheDatabase() async throws {
        let (store, location) = try await Self.open()
        defer { Task { await Self.close(store, location) } }
        try await Self.addUsers(["ada"], to: store)
        struct Seen: Sendable, Equatable {
            var about: String?
            var membersBefore = 0
            var membersAfter = 0
        }
        let (trips, seen) = try await store.thread.perform { () throws -> (Int, Seen) in
            let before = store.trips
            let seen = try store.transaction { () throws -> Seen in
                try store.prepareToRead(records: [SocialRecordKey(.user, "ada")], membershipsOf: ["c"])
                var seen = Seen()
                guard var ada = try store.load(User.self, id: "ada") else { return seen }
                seen.membersBefore = try store.channelMemberships(of: "c").count
                ada.about = "rewritten"
                try store.upsert(ada)
                try store.upsert(ChannelMember(
                    id: ChannelMember.makeID(channelId: "c", userId: "ada"), channelId: "c", userId: "ada", joinedAt: 1))
                seen.about = try store.load(User.self, id: "ada")?.about
                seen.membersAfter = try store.channelMemberships(of: "c").count
                return seen
            }
            return (store.trips - before, seen)
        }
        #expect(seen == Seen(about: "rewritten", membersBefore: 0, membersAfter: 1))
        // The lock; the prepared reads; the members after the writes (their table was written),
        // with the writes; the commit. Reading ada back after her write costs none.
        #expect(trips == 4)
    }

    @Test func aSavepointRolledBackTakesBackTheRecordsItWroteForLaterReads() async throws {
        let (store, location) = try await Self.open()
        defer { Task { await Self.close(store, location) } }
        try await Self.addUsers(["ada"], to: store)
        let (inside, committed) = try await store.thread.perform { () throws -> (String?, String?) in
            let inside = try store.transaction { () throws -> String? in
                guard var ada = try store.load(User.self, id: "ada") else { return nil }
                ada.about = "kept"
                try store.upsert(ada)
                struct Refused: Error {}
                _ = try? store.transaction { () throws -> Void in
                    ada.about = "rolled back"
                    try store.upsert(ada)
                    try store.remove(SocialRecordKey(.user, "ada"))
                    throw Refused()
                }
                return try store.load(User.self, id: "ada")?.about
            }
            return (inside, try store.load(User.self, id: "ada")?.about)
        }
        #expect(inside == "kept")
        #expect(committed == "kept")
    }

    @Test func readsPreparedTogetherCostOneTripAndAnswerAsTheDatabaseWould() async throws {
        let (store, location) = try await Self.open()
        defer { Task { await Self.close(store, location) } }
        try await Self.addUsers(["ada", "alan"], to: store)
        try await store.thread.perform {
            try store.transaction {
                try store.upsert(ChannelMember(
                    id: ChannelMember.makeID(channelId: "c", userId: "ada"), channelId: "c", userId: "ada", joinedAt: 1))
            }
        }
        let users = [SocialRecordKey(.user, "ada"), SocialRecordKey(.user, "alan"), SocialRecordKey(.user, "nobody")]
        let (trips, prepared, direct) = try await store.thread.perform {
            () throws -> (Int, [String?], [String?]) in
            func read() throws -> [String?] {
                try users.map { try store.load(User.self, id: $0.id)?.id } + [try store.channelMemberships(of: "c").first?.userId]
            }
            let before = store.trips
            let prepared = try store.readTransaction { () throws -> [String?] in
                try store.prepareToRead(records: users, membershipsOf: ["c"])
                return try read()
            }
            let trips = store.trips - before
            return (trips, prepared, try store.readTransaction { try read() })
        }
        #expect(prepared == ["ada", "alan", nil, "ada"])
        #expect(prepared == direct)
        // The three records and the members in one trip; one each without preparing.
        #expect(trips == 1)
    }

    /// The store found its connection open, and the connection then closed completely before the
    /// trip's statements reached it (PostgreSQL restarting while the store's thread waited for a
    /// core): the trip fails as a lost connection instead of waiting for answers that never
    /// come, and the next one connects again.
    @Test func aTripWhoseConnectionClosedAfterTheStoreFoundItOpenFailsAsALostConnection() async throws {
        let (store, location) = try await Self.open()
        defer { Task { await Self.close(store, location) } }
        let (answers, answer) = AsyncStream.makeStream(of: Result<Int64, any Error>.self)
        store.thread.run {
            store.beforeHandOver = { connection in
                store.beforeHandOver = nil
                // Closed, and its channel's handlers gone, as once the close has been handled.
                try? connection.close().wait()
            }
            answer.yield(Result { try store.latestSequence() })
            answer.yield(Result { try store.latestSequence() })
        }
        // Bounded: a statement the closed connection dropped would keep the store's thread waiting forever.
        let (first, second) = await Self.firstTwo(of: answers, within: .seconds(30))
        guard let first, let second else {
            Issue.record("the store's thread still waits for the answers of a connection that closed")
            return
        }
        switch first {
        case .success: Issue.record("a trip on a closed connection succeeded")
        case .failure(let error):
            guard case PostgresStoreError.connectionLost? = error as? PostgresStoreError else {
                Issue.record("not a lost connection: \(String(reflecting: error))")
                return
            }
        }
        #expect(try second.get() == 0)
    }

    /// The first two elements of `stream`, or nil for those that did not come within `limit`.
    private static func firstTwo<T: Sendable>(of stream: AsyncStream<T>, within limit: Duration) async -> (T?, T?) {
        await withTaskGroup(of: [T]?.self) { group in
            group.addTask {
                var elements: [T] = []
                for await element in stream {
                    elements.append(element)
                    if elements.count == 2 { break }
                }
                return elements
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let elements = await group.next() ?? nil
            group.cancelAll()
            return (elements?.first, elements.flatMap { $0.count > 1 ? $0[1] : nil })
        }
    }

    private static func addUsers(_ ids: [String], to store: PostgresServerStore) async throws {
        try await store.thread.perform {
            try store.transaction {
                for id in ids { try store.upsert(User(id: id, displayName: id, createdAt: 1, updatedAt: 1)) }
            }
        }
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
