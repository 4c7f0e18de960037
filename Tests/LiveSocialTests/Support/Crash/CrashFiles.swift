import Foundation
import LiveRepository

/// The crash tests' independent view of the files a killed client leaves: plain SQL on the server
/// file and the cache file, through a connection of their own (not the client's code paths).
struct CrashFiles {
    /// A labelled message of the user, as a file holds it.
    struct Row: Equatable {
        var id: String
        var clientRequestId: String
        var label: String
        var text: String
        var syncState: String
    }

    let folder: URL
    let userId: String

    var serverURL: URL { folder.appendingPathComponent("server.sqlite") }
    var cacheURL: URL { folder.appendingPathComponent("cache.sqlite") }

    /// The user's messages that carry a label (those the helper sent), in the server file.
    func serverMessages() throws -> [Row] { try messages(in: serverURL) }

    /// The same in the cache file.
    func cachedMessages() throws -> [Row] { try messages(in: cacheURL) }

    /// The user's reactions to messages in the server file, as `messageId name`.
    func serverReactions() throws -> Set<String> { try reactions(in: serverURL) }

    /// The same in the cache file.
    func cachedReactions() throws -> Set<String> { try reactions(in: cacheURL) }

    private func reactions(in url: URL) throws -> Set<String> {
        try read(url) { database in
            try database.query(
                "SELECT targetId, name FROM reactions WHERE userId = ? AND targetType = 'message'", [.text(userId)]
            ) { "\($0.string(0)) \($0.string(1))" }
        }.reduce(into: []) { $0.insert($1) }
    }

    /// The cache's records that are not in sync with the server (`syncState` other than `synced`),
    /// in every table that has a sync state, as `table id state`.
    func cachedUnsyncedRecords() throws -> [String] {
        try read(cacheURL) { database in
            let tables = try database.query(
                "SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'syncState'"
            ) { $0.string(0) }
            return try tables.flatMap { table in
                try database.query("SELECT id, syncState FROM \"\(table)\" WHERE syncState <> 'synced'") {
                    "\(table) \($0.string(0)) \($0.string(1))"
                }
            }
        }
    }

    private func messages(in url: URL) throws -> [Row] {
        try read(url) { database in
            try database.query(
                """
                SELECT id, clientRequestId, json_extract(metaArrays, '$.label[0]'), text, syncState FROM messages
                WHERE userId = ? AND json_extract(metaArrays, '$.label[0]') IS NOT NULL ORDER BY createdAt, id
                """, [.text(userId)]
            ) { Row(id: $0.string(0), clientRequestId: $0.string(1), label: $0.string(2), text: $0.string(3), syncState: $0.string(4)) }
        }
    }

    private func read<T>(_ url: URL, _ body: (SQLiteConnection) throws -> T) throws -> T {
        let database = try SQLiteConnection(location: .file(url))
        defer { database.close() }
        return try body(database)
    }
}
