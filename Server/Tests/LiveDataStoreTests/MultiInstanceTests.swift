import Foundation
@testable import LiveDataPostgres
import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

/// Several instances on one PostgreSQL database: every client sees every change once, in the
/// server's order, and the change log is gapless (issue 23).
@Suite("Instances on one PostgreSQL database", .serialized)
struct MultiInstanceTests {
    /// Messages per writer: 500 (the number) unless `LIVEDATA_MESSAGES_PER_WRITER` says otherwise.
    static let messagesPerWriter = Int(ProcessInfo.processInfo.environment["LIVEDATA_MESSAGES_PER_WRITER"] ?? "") ?? 500

    @Test func fourWritersOnTwoInstancesAreSeenByEveryClientOnceInOrder() async throws {
        let fixture = try await StoreFixture.make(.postgres)
        let (second, secondStore) = try await fixture.secondInstance()
        let instances = [fixture.server, second]
        try await fixture.server.seedDemoData()
        let listeners = instances.map { server in
            Task { await PostgresChangeListener(server: server, location: fixture.location!).run() }
        }
        // Caught up on the demo data before the clients subscribe.
        for server in instances { _ = try await server.publishExternalChanges() }
        let writers = ["ada", "alan", "grace", "linus"]
        let total = writers.count * Self.messagesPerWriter
        let sent = Set(writers.flatMap { writer in (0..<Self.messagesPerWriter).map { "\(writer)-\($0)" } })
        let collectors = instances.flatMap { server in
            ["margaret", "tim"].map { EventCollector(server.connection(userId: $0).events(), expected: total) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, writer) in writers.enumerated() {
                let connection = instances[index % 2].connection(userId: writer)
                group.addTask {
                    for number in 0..<Self.messagesPerWriter {
                        try await connection.perform(.sendMessage(
                            channelId: "general", clientRequestId: "\(writer)-\(number)", type: .text,
                            text: "\(writer) \(number)", parentId: nil, metaArrays: [:]))
                    }
                }
            }
            try await group.waitForAll()
        }
        let seen = await withTaskGroup(of: (sequences: [Int64], messageIds: [String]).self) { group in
            for collector in collectors { group.addTask { await collector.finish(within: .seconds(120)) } }
            return await group.reduce(into: [(sequences: [Int64], messageIds: [String])]()) { $0.append($1) }
        }
        for listener in listeners { listener.cancel() }
        let stored = try await fixture.server.records(SocialQuery<Message>.messages(channelId: "general", newestFirst: false))
            .filter { sent.contains($0.clientRequestId) }
        #expect(stored.count == total)
        let serverOrder = stored.map(\.id)
        for client in seen {
            #expect(client.messageIds.count == total)
            #expect(Set(client.messageIds).count == client.messageIds.count)
            #expect(client.sequences == client.sequences.sorted())
            // In the server's order: by sequence, which is also createdAt's order.
            #expect(client.messageIds == serverOrder)
        }
        // The change log, read from either instance, is gapless.
        for store in [secondStore] {
            let entries = try await store.thread.perform { try store.changeEntries(after: 0, scope: .all, limit: 1_000_000) }
            #expect(entries.map(\.sequence) == Array(1...Int64(entries.count)))
            #expect(try await store.thread.perform { try store.latestSequence() } == Int64(entries.count))
        }
        let closing = secondStore
        try? await secondStore.thread.perform { closing.close() }
        await fixture.close()
    }

    /// A client subscribes to an instance while the instance, finding nobody listening, passes
    /// over the changes up to the latest number, and a message is sent after the subscription,
    /// before that number is read: the message still reaches the client. (It was passed over with
    /// the changes before it: PostgresRestartTests' first message, once, under load.)
    @Test func aMessageSentAfterAClientSubscribedWhileNobodyListenedStillReachesIt() async throws {
        let fixture = try await StoreFixture.make(.postgres)
        let (second, secondStore) = try await fixture.secondInstance()
        try await fixture.server.seedDemoData()
        _ = try await second.publishExternalChanges()
        let writer = fixture.server.connection(userId: "ada")
        let (subscriptions, subscribe) = AsyncStream.makeStream(of: AsyncStream<SocialEvent>.self)
        try await secondStore.thread.perform {
            secondStore.beforeHandOver = { _ in
                // The trip that reads the latest number, once the publication found nobody listening.
                secondStore.beforeHandOver = nil
                subscribe.yield(second.connection(userId: "tim").events())
                let sent = DispatchSemaphore(value: 0)
                Task {
                    _ = try? await writer.perform(.sendMessage(
                        channelId: "general", clientRequestId: "meanwhile", type: .text, text: "meanwhile", parentId: nil,
                        metaArrays: [:]))
                    sent.signal()
                }
                sent.wait()
            }
        }
        _ = try await second.publishExternalChanges()
        _ = try await second.publishExternalChanges()
        let events = try #require(await subscriptions.first { _ in true })
        let collector = EventCollector(events, expected: 1)
        let stored = try await fixture.server.records(SocialQuery<Message>.messages(channelId: "general", newestFirst: false))
        let meanwhile = try #require(stored.first { $0.clientRequestId == "meanwhile" })
        // Bounded: without it, the message never comes.
        #expect(await collector.finish(within: .seconds(30)).messageIds == [meanwhile.id])
        let closing = secondStore
        try? await secondStore.thread.perform { closing.close() }
        await fixture.close()
    }
}
