import LiveRepository
@testable import LiveSocial
import Testing

/// The one reader of ranges of a channel's cached history, on a real cache: each kind of bound
/// on each side, in both orders, with a limit, and ties in creation time broken by id.
@Suite struct HistoryRangeTests {
    /// A cache holding messages `m1`...`m9` of channel "c" created at 1...9, plus `m5b` at 5 (after
    /// `m5` by id), and one message of another channel.
    private static func cache() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(location: .inMemory)
        try SQLiteMigrator(LiveSocialSchema.migrations).migrate(connection)
        var messages = (1...9).map { message("m\($0)", at: Double($0)) }
        messages.append(message("m5b", at: 5))
        messages.append(message("x1", at: 5, channel: "other"))
        let table = Message.table
        let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        for message in messages {
            try connection.execute("INSERT INTO \(table.name) (\(table.columnList)) VALUES (\(placeholders))", message.columnValues)
        }
        return connection
    }

    private static func message(_ id: String, at time: Double, channel: String = "c") -> Message {
        Message(id: id, clientRequestId: id, channelId: channel, userId: "u", text: id, createdAt: time, updatedAt: time)
    }

    private static func position(_ id: String, at time: Double) -> MessagePosition {
        MessagePosition(createdAt: time, id: id)
    }

    private static let oldestFirst = CacheQuery<Message>([.equals("channelId", .text("c"))], orderBy: "createdAt")

    private static func ids(_ range: HistoryRange, _ query: CacheQuery<Message> = oldestFirst, limit: Int = .max) throws -> [String] {
        try Message.read(query, within: range, limit: limit, from: cache()).map(\.id)
    }

    @Test func openBoundsReadTheWholeChannelInTheQuerysOrder() throws {
        let all = ["m1", "m2", "m3", "m4", "m5", "m5b", "m6", "m7", "m8", "m9"]
        #expect(try Self.ids(HistoryRange(older: .open, newer: .open)) == all)
        #expect(try Self.ids(HistoryRange(older: .open, newer: .open), Self.oldestFirst.reversed) == all.reversed())
    }

    @Test func includingAndExcludingBoundsKeepOrLeaveTheirPosition() throws {
        let five = Self.position("m5", at: 5)
        let eight = Self.position("m8", at: 8)
        #expect(try Self.ids(HistoryRange(older: .including(five), newer: .including(eight)))
            == ["m5", "m5b", "m6", "m7", "m8"])
        #expect(try Self.ids(HistoryRange(older: .excluding(five), newer: .excluding(eight))) == ["m5b", "m6", "m7"])
        #expect(try Self.ids(HistoryRange(older: .including(Self.position("m5b", at: 5)), newer: .open)).first == "m5b")
        #expect(try Self.ids(HistoryRange(older: .open, newer: .excluding(Self.position("m5b", at: 5)))).last == "m5")
    }

    @Test func aPageReadsAfterItsStartInEitherDirectionUpToItsLimit() throws {
        let start = Self.position("m5", at: 5)
        let newestFirst = Self.oldestFirst.reversed
        #expect(try Self.ids(.after(start, in: newestFirst), newestFirst, limit: 3) == ["m4", "m3", "m2"])
        #expect(try Self.ids(.after(start, in: Self.oldestFirst), limit: 3) == ["m5b", "m6", "m7"])
        // The bounds at infinity a collection has before anything loaded admit everything.
        let unloaded = HistoryRange(older: .including(Self.position("", at: -.infinity)),
                                    newer: .including(Self.position("", at: .infinity)))
        #expect(try Self.ids(unloaded).count == 10)
    }
}
