import Foundation
import LiveRepository
@_spi(Testing) import LiveSocial
import LiveSocialServer

extension ChatModelRun {
    // MARK: Settling

    /// Waits until nothing is under way: no request with the server (a held one is released by
    /// advancing the clock), no send or load of the run unfinished, and, while connected, the
    /// outbox drained and the events of every write since the connection applied. Bounded: a
    /// system that never settles fails the run.
    func quiesce() async throws {
        var quietRounds = 0
        var requests = api.started
        for _ in 0 ..< 5_000 {
            // An empty write, not a read: reads run beside writes, but writes and their
            // completions (where the client tells its collections) keep their order.
            try await client.store.write { _ in }
            await Task.yield()
            await Task.yield()
            if clock.sleeperCount > 0 {
                clock.advance(by: .seconds(1))
                quietRounds = 0
                continue
            }
            // Quiet for several rounds in a row, with no new request meanwhile: work that goes
            // from one request to the next (a catch-up) hops through the main actor in between.
            if try await isQuiet(), api.started == requests {
                quietRounds += 1
                if quietRounds >= Self.quietRoundsNeeded { return }
            } else {
                quietRounds = 0
                requests = api.started
            }
        }
        let pending = try await pendingInCache()
        throw ChatModelFailure(
            what: "the system never settled", expected: "no request, send or load under way; outbox drained",
            actual: "requests \(api.inFlight), unfinished \(unfinished), pending in cache \(pending), events applied through \(client.lastEventSequence) of \(try await server.latestSequence())")
    }

    static let quietRoundsNeeded = 5

    private func isQuiet() async throws -> Bool {
        guard api.inFlight == 0, unfinished == 0, !collection.hasWorkUnderWay else { return false }
        guard connected else { return true }
        guard try await pendingInCache().isEmpty else { return false }
        let latest = try await server.latestSequence()
        return latest == sequenceAtConnect || client.lastEventSequence >= latest
    }

    /// The texts of the user's pending messages in the cache, read with plain SQL.
    func pendingInCache() async throws -> [String] {
        try await client.store.read { connection in
            try connection.query(
                "SELECT text FROM messages WHERE userId = ? AND id = clientRequestId AND syncState = 'syncing' ORDER BY createdAt",
                [.text(Self.me)]) { $0.string(0) }
        }
    }

    // MARK: Invariants

    /// The invariants that hold whenever the system has settled.
    func check() async throws {
        coverage.checks += 1
        coverage.delegateCalls += mirror.checkQuiet(collection)
        for (index, mirror) in ([self.mirror] + retired).enumerated() {
            if let problem = mirror.problems.first {
                throw ChatModelFailure(
                    what: index == 0 ? "the delegate calls disagree with the collection" : "a disposed collection delivered",
                    expected: "calls that lead from one snapshot to the next, nothing after dispose", actual: problem)
            }
        }
        let rows = try reference.messages(in: Self.channelId)
        let succeeded = collection.succeededMessages
        let listed = opening.reverse ? Array(succeeded.reversed()) : succeeded
        let pending = collection.pendingMessages
        let failed = collection.failedMessages
        for message in pending + failed { requestIdOfText[message.text] = message.clientRequestId }
        for row in rows where row.userId == Self.me && requestIdOfText[row.text] == nil { requestIdOfText[row.text] = row.clientRequestId }

        // Exactly once, in order.
        var seen = Set<String>()
        for message in listed + pending + failed where !seen.insert(message.clientRequestId + "/" + message.userId).inserted {
            throw ChatModelFailure(what: "a message is shown twice", expected: "once", actual: describeState())
        }
        let positions = listed.map(MessagePosition.init(of:))
        if positions != positions.sorted() {
            throw ChatModelFailure(what: "succeeded messages out of order", expected: "oldest first by (createdAt, id)", actual: describeState())
        }

        // Pending and failed copies.
        for message in pending + failed {
            guard message.userId == Self.me, message.id == message.clientRequestId else {
                throw ChatModelFailure(what: "a local copy that is not the user's", expected: "userId \(Self.me), id == clientRequestId",
                                       actual: "\(message)")
            }
        }
        for message in failed where !refusedTexts.contains(message.text) {
            throw ChatModelFailure(what: "a message failed that the server would accept", expected: "pending or sent",
                                   actual: describeState())
        }
        for text in refusedTexts.subtracting(removedTexts) where !failed.contains(where: { $0.text == text }) {
            // Offline, it waits to be sent.
            if !connected, pending.contains(where: { $0.text == text }) { continue }
            throw ChatModelFailure(what: "a refused message is not listed as failed", expected: "\(text) failed", actual: describeState())
        }
        if rows.contains(where: { refusedTexts.contains($0.text) }) {
            throw ChatModelFailure(what: "the server stored a refused message", expected: "none", actual: "\(rows.filter { refusedTexts.contains($0.text) })")
        }
        guard connected else { return }
        if !pending.isEmpty {
            throw ChatModelFailure(what: "messages stay pending while connected", expected: "none", actual: describeState())
        }
        for message in failed where rows.contains(where: { $0.clientRequestId == message.clientRequestId && $0.userId == Self.me }) {
            throw ChatModelFailure(what: "a failed copy has an accepted twin", expected: "no server copy", actual: "\(message.text)")
        }
        // Every send the server accepts is stored once.
        for text in ownTexts {
            guard let requestId = requestIdOfText[text] else {
                throw ChatModelFailure(what: "a sent message was never seen", expected: "\(text) pending, then sent", actual: describeState())
            }
            let copies = rows.filter { $0.clientRequestId == requestId && $0.userId == Self.me }
            if copies.count != 1 {
                throw ChatModelFailure(what: "a sent message is stored \(copies.count) times", expected: "\(text) once", actual: "\(copies)")
            }
        }
        // Connected and settled: the collection has loaded from the server (a start made offline
        // loads once the connection is back).
        collectionSynced = true
        mirror.awaitsServer = false
        try checkAgainstServer(listed, rows: rows)
    }

    /// The succeeded messages are a run of the server's messages without a gap, each as the
    /// server has it, reaching the oldest one unless `hasPrevious` and the newest unless `hasNext`.
    private func checkAgainstServer(_ listed: [Message], rows: [ServerReference.Row]) throws {
        let visible = rows.filter { !$0.isDeleted }
        if let first = listed.first {
            guard let start = visible.firstIndex(where: { $0.id == first.id }),
                  visible.count - start >= listed.count,
                  Array(visible[start ..< start + listed.count].map(\.id)) == listed.map(\.id) else {
                throw ChatModelFailure(
                    what: "the succeeded messages are not a run of the server's", expected: describe(visible),
                    actual: describeState())
            }
            for (message, row) in zip(listed, visible[start...]) {
                let expectedText = message.syncState == .error ? failedEdits[message.id] : row.text
                if message.syncState == .syncing || message.text != expectedText || message.editedAt != row.editedAt && message.syncState == .synced {
                    throw ChatModelFailure(what: "a message differs from the server's", expected: "\(row)", actual: "\(message)")
                }
            }
            if !collection.hasPrevious, start != 0 {
                throw ChatModelFailure(what: "hasPrevious is false but older messages exist", expected: describe(visible), actual: describeState())
            }
            if !collection.hasNext, start + listed.count != visible.count {
                throw ChatModelFailure(what: "hasNext is false but newer messages exist", expected: describe(visible), actual: describeState())
            }
        } else if !collection.hasPrevious, !collection.hasNext, !visible.isEmpty {
            throw ChatModelFailure(what: "an empty list with nothing to load", expected: describe(visible), actual: describeState())
        }
    }

    /// After a start with nothing else under way: the messages around the starting point, as the docs say.
    func checkStartWindow(rowsBefore: [ServerReference.Row]?) async throws {
        guard connected, lastLoadError == nil else { return }
        let rows = try rowsBefore ?? reference.messages(in: Self.channelId)
        let now = try reference.messages(in: Self.channelId)
        // Only messages unchanged since `rows` were read count: nothing changed them meanwhile.
        guard now.filter({ !$0.isDeleted }).map(\.id) == rows.filter({ !$0.isDeleted }).map(\.id) else { return }
        let visible = rows.filter { !$0.isDeleted }
        let point = collection.startingPoint
        let exactGoesNewer = opening.nextResultSize > 0
        let older = visible.filter { $0.createdAt < point || (opening.isInclusive && !exactGoesNewer && $0.createdAt == point) }
        let newer = visible.filter { $0.createdAt > point || (opening.isInclusive && exactGoesNewer && $0.createdAt == point) }
        let expected = older.suffix(opening.previousResultSize).map(\.id) + newer.prefix(opening.nextResultSize).map(\.id)
        let listed = collection.succeededMessages.map(\.id)
        let actual = opening.reverse ? Array(listed.reversed()) : listed
        let flags = (older.count > opening.previousResultSize, newer.count > opening.nextResultSize)
        if actual != expected || collection.hasPrevious != flags.0 || collection.hasNext != flags.1 {
            throw ChatModelFailure(
                what: "the start did not list the messages around the starting point \(point)",
                expected: "\(expected) hasPrevious \(flags.0) hasNext \(flags.1)",
                actual: "\(actual) hasPrevious \(collection.hasPrevious) hasNext \(collection.hasNext)")
        }
    }

    /// After a page with nothing else under way: the page's messages joined the list on its side.
    func checkPageWindow(previous: Bool, before: [Message], rowsBefore: [ServerReference.Row]) async throws {
        let visible = rowsBefore.filter { !$0.isDeleted }
        let now = try reference.messages(in: Self.channelId).filter { !$0.isDeleted }
        guard now.map(\.id) == visible.map(\.id) else { return }
        let old = opening.reverse ? Array(before.reversed()) : before
        let size = previous ? (opening.previousResultSize == 0 ? 20 : opening.previousResultSize)
            : (opening.nextResultSize == 0 ? 20 : opening.nextResultSize)
        let expected: [String]
        let more: Bool
        if previous {
            let edge = old.first.map(MessagePosition.init(of:))
            let older = visible.filter { row in edge.map { MessagePosition(createdAt: row.createdAt, id: row.id) < $0 } ?? true }
            guard edge != nil else { return }
            expected = older.suffix(size).map(\.id) + old.map(\.id)
            more = older.count > size
        } else {
            let edge = old.last.map(MessagePosition.init(of:))
            let newer = visible.filter { row in edge.map { MessagePosition(createdAt: row.createdAt, id: row.id) > $0 } ?? true }
            guard edge != nil else { return }
            expected = old.map(\.id) + newer.prefix(size).map(\.id)
            more = newer.count > size
        }
        let listed = collection.succeededMessages.map(\.id)
        let actual = opening.reverse ? Array(listed.reversed()) : listed
        let flag = previous ? collection.hasPrevious : collection.hasNext
        if actual != expected || flag != more {
            throw ChatModelFailure(
                what: "the page did not add the \(size) messages \(previous ? "before" : "after") the list",
                expected: "\(expected) has\(previous ? "Previous" : "Next") \(more)",
                actual: "\(actual) has\(previous ? "Previous" : "Next") \(flag)")
        }
    }

    // MARK: Descriptions

    func describeState() -> String {
        let succeeded = opening.reverse ? Array(collection.succeededMessages.reversed()) : collection.succeededMessages
        return "\(CollectionMirror.describe(succeeded)) pending \(CollectionMirror.describe(collection.pendingMessages)) failed \(CollectionMirror.describe(collection.failedMessages)) hasPrevious \(collection.hasPrevious) hasNext \(collection.hasNext)"
    }

    func describe(_ rows: [ServerReference.Row]) -> String {
        "server [" + rows.map { $0.text }.joined(separator: ", ") + "]"
    }
}
