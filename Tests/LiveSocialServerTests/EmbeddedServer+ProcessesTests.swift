import Foundation
import LiveRepository
import LiveSocial
@testable import LiveSocialServer
import TestSupport
import Testing

/// Several servers on one file, as several processes (or an app and its extension) open it.
@Suite(.timeLimit(.minutes(3))) @MainActor struct EmbeddedServerProcessesTests {
    // MARK: Events across servers

    @Test func aMessageSentThroughOneServerReachesASubscriberOfTheOther() async throws {
        let file = try SharedServerFile()
        let (first, second) = try await file.seededPair()
        let log = EventLog(second.connection(userId: "alan"))
        let sent = try #require(try await first.connection(userId: "ada")
            .perform(.sendText("Hi from the other process", channelId: "general", clientRequestId: "p1")).first(Message.self))
        let end = try await first.latestSequence()
        #expect(log.changes.isEmpty)

        #expect(try await second.publishExternalChanges() == 2)
        try await log.waitForSequence(end)
        guard log.changes.count == 2, case .created(.message(let message), let messageSequence) = log.changes[0],
              case .updated(.channel(let channel), let channelSequence) = log.changes[1]
        else {
            Issue.record("expected the message created then its channel updated, got \(log.changes)")
            return
        }
        #expect(message == sent && messageSequence == end - 1)
        #expect(channel.id == "general" && channel.lastMessageText == sent.text && channelSequence == end)
        // Published once: asking again finds nothing new.
        #expect(try await second.publishExternalChanges() == 0)
        #expect(log.changes.count == 2)
    }

    @Test func aRecordRemovedSinceIsPublishedAsDeleted() async throws {
        let file = try SharedServerFile()
        let (first, second) = try await file.seededPair()
        let log = EventLog(second.connection(userId: "alan"))
        let ada = first.connection(userId: "ada")
        let start = try await first.latestSequence()
        try await ada.perform(.addReaction(targetType: .post, targetId: "post-1", name: "wave"))
        try await ada.perform(.removeReaction(targetType: .post, targetId: "post-1", name: "wave"))
        let end = try await first.latestSequence()

        try await second.publishExternalChanges()
        try await log.waitForSequence(end)
        let reaction = SocialRecordKey(.reaction, Reaction.makeID(targetType: .post, targetId: "post-1", userId: "ada", name: "wave"))
        let post = try #require(try await first.record(Post.self, id: "post-1"))
        // The reaction's creation finds it gone, so both its entries say deleted; the post
        // carries its state now, in both of its entries.
        #expect(log.changes == [
            .deleted(reaction, sequence: start + 1), .updated(.post(post), sequence: start + 2),
            .deleted(reaction, sequence: start + 3), .updated(.post(post), sequence: start + 4),
        ])
    }

    @Test func aLongRunOfOtherWritesIsPublishedWholeAndInOrder() async throws {
        let file = try SharedServerFile()
        let first = try file.server()
        let second = try file.server()
        let log = EventLog(second.connection(userId: "bench-user"))
        // More entries than one read publishes (500): a user, the messages, a channel and a membership.
        try await first.bulkLoadMessages(count: 1_200, channelCount: 1)
        let end = try await first.latestSequence()
        #expect(end == 1_203)
        #expect(try await second.publishExternalChanges() == 1_203)
        try await log.waitForSequence(end)
        #expect(log.sequences == Array(1...end))
        #expect(log.changes.filter { if case .updated(.message, _) = $0 { true } else { false } }.count == 1_200)
    }

    @Test func ownWritesComeAfterTheOtherServersEarlierWritesOnEachSide() async throws {
        let file = try SharedServerFile()
        let (first, second) = try await file.seededPair()
        let logs = [EventLog(first.connection(userId: "ada")), EventLog(second.connection(userId: "alan"))]
        let start = try await first.latestSequence()
        for round in 0..<10 {
            try await first.connection(userId: "ada")
                .perform(.sendText("a\(round)", channelId: "general", clientRequestId: "a\(round)"))
            try await second.connection(userId: "alan")
                .perform(.sendText("b\(round)", channelId: "general", clientRequestId: "b\(round)"))
            if round % 3 == 0 { try await first.publishExternalChanges() }
        }
        try await first.publishExternalChanges()
        try await second.publishExternalChanges()
        let end = try await first.latestSequence()
        #expect(end == start + 40)
        for log in logs {
            try await log.waitForSequence(end)
            #expect(log.sequences == Array(start + 1...end))
        }
    }

    @Test func concurrentWritersReachBothWatchingServersInOrderOnce() async throws {
        let file = try SharedServerFile()
        let first = try file.server(externalChanges: .default)
        try await first.seedDemoData()
        let second = try file.server(externalChanges: .default)
        let logs = [EventLog(first.connection(userId: "ada")), EventLog(second.connection(userId: "alan"))]
        let start = try await first.latestSequence()
        let count = 100
        async let fromFirst: Void = Self.send(count, as: "ada", prefix: "a", through: first)
        async let fromSecond: Void = Self.send(count, as: "alan", prefix: "b", through: second)
        _ = try await (fromFirst, fromSecond)
        let end = try await first.latestSequence()
        #expect(end == start + Int64(4 * count))
        // The watchers publish the last writes of the other side without being asked.
        for log in logs {
            try await log.waitForSequence(end)
            #expect(log.sequences == Array(start + 1...end))
        }
        let messages = try await first.records(SocialQuery.messages(channelId: "general"))
        #expect(messages.filter { $0.clientRequestId.hasPrefix("a") || $0.clientRequestId.hasPrefix("b") }.count == 2 * count)
    }

    private nonisolated static func send(_ count: Int, as userId: String, prefix: String, through server: EmbeddedServer) async throws {
        let connection = server.connection(userId: userId)
        for number in 0..<count {
            try await connection.perform(.sendText("\(prefix)\(number)", channelId: "general", clientRequestId: "\(prefix)\(number)"))
        }
    }

    @Test func aDisconnectedServerMissesTheOthersEventsAndCatchesUpWithTheChangeLog() async throws {
        let file = try SharedServerFile()
        let (first, second) = try await file.seededPair()
        let log = EventLog(second.connection(userId: "alan"))
        let ada = first.connection(userId: "ada")
        let start = try await first.latestSequence()
        second.disconnect()
        let missed = try #require(try await ada.perform(.sendText("missed", channelId: "general", clientRequestId: "m1")).first(Message.self))
        #expect(try await second.publishExternalChanges() == 0)
        second.reconnect()
        let seen = try #require(try await ada.perform(.sendText("seen", channelId: "general", clientRequestId: "m2")).first(Message.self))
        let end = try await first.latestSequence()
        try await second.publishExternalChanges()
        try await log.waitForSequence(end)
        #expect(log.deliveries.all.filter { $0.sequence == nil } == [.connected, .disconnected, .connected])
        #expect(log.sequences == [end - 1, end])
        let catchUp = try await second.connection(userId: "alan").changes(since: start, limit: 100, scope: .messages(channelId: "general"))
        #expect(catchUp.records.compactMap { $0.record(as: Message.self) } == [missed, seen])
        #expect(catchUp.latestSequence == end - 1 && !catchUp.hasMore)
    }

    // MARK: Writers that share the file

    @Test func aResendThroughAnotherServerStoresOneMessage() async throws {
        let file = try SharedServerFile()
        let (first, second) = try await file.seededPair()
        let before = try #require(try await first.record(Channel.self, id: "general"))
        let send = SocialMutation.sendText("once", channelId: "general", clientRequestId: "shared-request")
        // At the same moment, then once more after both answered.
        async let one = first.connection(userId: "ada").perform(send)
        async let other = second.connection(userId: "ada").perform(send)
        let answers = try await [one, other].map { try #require($0.first(Message.self)) }
        let again = try #require(try await second.connection(userId: "ada").perform(send).first(Message.self))
        #expect(answers[0] == answers[1] && again == answers[0])
        let stored = try await second.records(SocialQuery.messages(channelId: "general")).filter { $0.clientRequestId == "shared-request" }
        #expect(stored == [answers[0]])
        #expect(try await first.record(Channel.self, id: "general")?.messageCount == before.messageCount + 1)
    }

    @Test func twoServersSeedingAnEmptyFileAtOnceSeedOnce() async throws {
        let file = try SharedServerFile()
        let first = try file.server()
        let second = try file.server()
        async let one = first.seedDemoData()
        async let other = second.seedDemoData()
        let seeded = try await [one, other]
        #expect(seeded.sorted { !$0 && $1 } == [false, true])
        let reference = try await ServerFixture.seeded()
        #expect(try await first.latestSequence() == reference.server.latestSequence())
        for kind in SocialRecordKind.allCases {
            #expect(try await second.ids(of: kind, includeDeleted: true) == reference.server.ids(of: kind, includeDeleted: true))
        }
        #expect(try await first.seedDemoData() == false)
    }

    @Test func timestampsAndIdsStayUniqueAndOrderedAcrossServers() async throws {
        let file = try SharedServerFile()
        // Two servers whose clocks both say the same time, and never move.
        let servers = [try file.server(), try file.server()]
        var users: [User] = []
        for number in 0..<6 {
            users.append(try await servers[number % 2].createUser(id: "user-\(number)", displayName: "User \(number)"))
        }
        try await servers[0].createChannel(id: "room", displayName: "Room", type: .community, memberIds: users.map(\.id))
        var messages: [Message] = []
        for number in 0..<6 {
            let connection = servers[number % 2].connection(userId: users[number].id)
            let answer = try await connection.perform(.sendText("m\(number)", channelId: "room", clientRequestId: "m\(number)"))
            messages.append(try #require(answer.first(Message.self)))
        }
        #expect(users.first?.createdAt == ServerFixture.epoch)
        let times = users.map(\.createdAt) + messages.map(\.createdAt)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(messages.map(\.id) == (1...6).map { "msg-\($0)" })
        #expect(try await servers[1].records(SocialQuery.messages(channelId: "room", newestFirst: false)) == messages)
    }

    @Test func aWriteThatFindsTheFileBusyIsTriedAgain() async throws {
        let file = try SharedServerFile()
        let server = try file.server()
        try await server.seedDemoData()
        let holder = try WriteLockHolder(file.url)
        let attempts = AttemptLog()
        try await server.setBusyHandling(timeoutMilliseconds: 0) { attempt in
            attempts.append(attempt)
            holder.release()
        }
        try holder.hold()
        let sent = try await server.connection(userId: "ada")
            .perform(.sendText("waited", channelId: "general", clientRequestId: "busy-1")).first(Message.self)
        #expect(attempts.all == [2])
        #expect(sent?.text == "waited")
    }

    @Test func aWriteFailsOnlyAfterItsLastAttempt() async throws {
        let file = try SharedServerFile()
        let server = try file.server()
        try await server.seedDemoData()
        let holder = try WriteLockHolder(file.url)
        let attempts = AttemptLog()
        try await server.setBusyHandling(timeoutMilliseconds: 0) { attempts.append($0) }
        try holder.hold()
        await #expect(throws: SocialAPIError.self) {
            try await server.connection(userId: "ada").perform(.sendText("lost", channelId: "general", clientRequestId: "busy-2"))
        }
        #expect(attempts.all == [2, 3, 4])
        holder.release()
        let messages = try await server.records(SocialQuery.messages(channelId: "general"))
        #expect(!messages.contains { $0.clientRequestId == "busy-2" })
    }

    @Test func aFileWhoseChangeLogPredatesCreationsStillOpensAndPublishes() async throws {
        let file = try SharedServerFile()
        do {
            let old = try file.server()
            try await old.createUser(id: "old", displayName: "Old")
        }
        let connection = try SQLiteConnection(location: .file(file.url))
        try connection.execute("ALTER TABLE server_changelog DROP COLUMN isCreation")
        connection.close()
        let first = try file.server()
        let second = try file.server()
        let log = EventLog(second.connection(userId: "old"))
        let user = try await first.createUser(id: "new", displayName: "New")
        try await second.publishExternalChanges()
        try await log.waitForSequence(2)
        #expect(log.changes == [.created(.user(user), sequence: 2)])
        let history = try await second.connection(userId: "old").changes(since: 0, limit: 10, scope: .all)
        #expect(history.records.map(\.key.id) == ["old", "new"])
    }

    // MARK: Another process

    @Test func aChildProcessWritingAtTheSameTimeLosesNothingAndEachSideSeesEveryEventOnceInOrder() async throws {
        let file = try SharedServerFile()
        let server = try EmbeddedServer(location: .file(file.url))
        try await server.seedDemoData()
        let before = try #require(try await server.record(Channel.self, id: "general"))
        let log = EventLog(server.connection(userId: "ada"))
        let count = 150
        let child = try HelperProcess(["server-send", file.url.path, "alan", "general", "\(count)", "child"])
        #expect(await child.nextLine() == "ready")
        let start = try await server.latestSequence()
        child.send("go")
        try await Self.send(count, as: "ada", prefix: "parent-", through: server)
        var childSent: [String] = []
        while let line = await child.nextLine(startingWith: "sent"), line != "sent-all" {
            childSent.append(line)
        }
        #expect(childSent.count == count && childSent.allSatisfy { $0.hasPrefix("sent msg-") })
        let end = try await server.latestSequence()
        #expect(end == start + Int64(4 * count))
        child.send("through \(end)")
        #expect(await child.nextLine(startingWith: "done") == "done")
        #expect(await child.exitStatus() == 0)
        try await log.waitForSequence(end)
        #expect(log.sequences == Array(start + 1...end))
        let childEvents = child.allLines.filter { $0.hasPrefix("event ") }.compactMap { Int64($0.dropFirst(6)) }
        #expect(childEvents == Array(start + 1...end))

        let messages = try await server.records(SocialQuery.messages(channelId: "general", newestFirst: false))
        let new = messages.filter { $0.clientRequestId.hasPrefix("parent-") || $0.clientRequestId.hasPrefix("child-") }
        #expect(Set(new.map(\.clientRequestId)).count == 2 * count && new.count == 2 * count)
        // Sorted by time, the messages are in the order their ids were given, across both processes.
        #expect(new.map { Int($0.id.dropFirst(4)) ?? 0 } == new.map { Int($0.id.dropFirst(4)) ?? 0 }.sorted())
        #expect(zip(new, new.dropFirst()).allSatisfy { $0.createdAt < $1.createdAt })
        #expect(try await server.record(Channel.self, id: "general")?.messageCount == before.messageCount + 2 * count)
    }

    @Test func twoProcessesSeedingAnEmptyFileAtOnceSeedOnce() async throws {
        let file = try SharedServerFile()
        let child = try HelperProcess(["server-seed", file.url.path])
        // Opened while the child opens (and creates) the same file.
        let server = try file.server()
        #expect(await child.nextLine() == "ready")
        child.send("go")
        let seededHere = try await server.seedDemoData()
        let line = await child.nextLine(startingWith: "seeded")
        #expect(await child.exitStatus() == 0)
        #expect([seededHere, line == "seeded true"].filter { $0 }.count == 1)
        let reference = try await ServerFixture.seeded()
        #expect(try await server.latestSequence() == reference.server.latestSequence())
        #expect(try await server.ids(of: .message) == reference.server.ids(of: .message))
    }
}

/// A connection of the test's own that holds the file's write lock, as another process would.
///
/// `@unchecked Sendable`: `lock` guards `connection`, used by the test and by the server's
/// busy observer.
private final class WriteLockHolder: @unchecked Sendable {
    private let lock = NSLock()
    private let connection: SQLiteConnection

    init(_ url: URL) throws {
        connection = try SQLiteConnection(location: .file(url))
    }

    /// Takes the write lock (`BEGIN IMMEDIATE`).
    func hold() throws {
        lock.lock()
        defer { lock.unlock() }
        try connection.execute("BEGIN IMMEDIATE")
    }

    /// Lets the write lock go, if held.
    func release() {
        lock.lock()
        defer { lock.unlock() }
        if !connection.isInAutocommitMode { try? connection.execute("COMMIT") }
    }
}

/// The attempt numbers a busy observer was called with.
///
/// `@unchecked Sendable`: `lock` guards `attempts`.
private final class AttemptLog: @unchecked Sendable {
    private let lock = NSLock()
    private var attempts: [Int] = []

    var all: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return attempts
    }

    func append(_ attempt: Int) {
        lock.lock()
        attempts.append(attempt)
        lock.unlock()
    }
}
