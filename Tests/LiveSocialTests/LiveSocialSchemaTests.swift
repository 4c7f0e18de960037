import LiveRepository
import LiveSocial
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3)))
struct LiveSocialSchemaTests {
    @Test func aVersion1CacheMigratesAndKeepsItsMessages() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("v1.sqlite")
        do {
            let connection = try SQLiteConnection(location: .file(url))
            try SQLiteMigrator(Array(LiveSocialSchema.migrations.prefix(1))).migrate(connection)
            // A message as version 1 stored it: no meta arrays, no reactions.
            try connection.execute(
                """
                INSERT INTO messages (id, clientRequestId, channelId, userId, type, text, parentId, reactionCount,
                    createdAt, updatedAt, editedAt, isDeleted, syncState)
                VALUES ('m1', 'r1', 'general', 'ada', 'text', 'from v1', NULL, 2, 10, 10, NULL, 0, 'synced')
                """)
            #expect(try connection.userVersion() == 1)
        }
        let connection = try SQLiteConnection(location: .file(url))
        #expect(try SQLiteMigrator(LiveSocialSchema.migrations).migrate(connection) == [2, 3])
        let message = try #require(try Message.read(id: "m1", from: connection))
        #expect(message.text == "from v1")
        #expect(message.metaArrays.isEmpty && message.reactions.isEmpty)
        #expect(message.reactionCount == 2)
        let indexes = try connection.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'") {
            $0.string(0)
        }
        #expect(indexes.contains("messages_unsynced"))
    }

    @Test func aNewCacheHasTheLatestSchema() throws {
        let connection = try SQLiteConnection(location: .inMemory)
        #expect(try SQLiteMigrator(LiveSocialSchema.migrations).migrate(connection) == [1, 2, 3])
        var message = Message(id: "m", clientRequestId: "m", channelId: "c", userId: "u", text: "t", createdAt: 1, updatedAt: 1,
                              metaArrays: ["k": ["v"]], reactions: [MessageReaction(key: "like", userIds: ["u"])])
        message.syncState = .syncing
        let marks = Array(repeating: "?", count: Message.table.columns.count).joined(separator: ", ")
        try connection.execute(
            "INSERT INTO messages (\(Message.table.columnList)) VALUES (\(marks))", message.columnValues)
        #expect(try Message.read(id: "m", from: connection) == message)
    }
}
