// Reads the data folder of sample apps that have exited: macOS and Linux only, like the apps.
#if os(macOS) || os(Linux)
import Foundation
import LiveRepository
import TestSupport

/// The SQLite files of a data folder the sample apps used: the shared server's and each user's cache.
///
/// Read only after every app on the folder has exited.
struct SampleDataFiles {
    /// One message as a file holds it.
    struct Row: Hashable, CustomStringConvertible {
        var id: String
        var clientRequestId: String
        var userId: String
        var text: String
        var syncState: String

        var description: String { "\(userId): \(text) [\(syncState), \(id)]" }
    }

    let folder: TemporaryDirectory

    /// The messages of `channelId` in the server's file, in the server's order (oldest first).
    func serverMessages(in channelId: String) throws -> [Row] {
        try messages(in: folder.file("server.sqlite"), channelId: channelId)
    }

    /// The messages of `channelId` in `userId`'s cache, oldest first (by time, then id).
    func cachedMessages(of userId: String, in channelId: String) throws -> [Row] {
        try messages(in: cacheURL(of: userId), channelId: channelId)
    }

    /// `userId`'s cache file.
    func cacheURL(of userId: String) -> URL { folder.file("users/\(userId)/cache.sqlite") }

    private func messages(in url: URL, channelId: String) throws -> [Row] {
        let database = try SQLiteConnection(location: .file(url))
        defer { database.close() }
        return try database.query(
            "SELECT id, clientRequestId, userId, text, syncState FROM messages WHERE channelId = ? ORDER BY createdAt, id",
            [.text(channelId)]
        ) { Row(id: $0.string(0), clientRequestId: $0.string(1), userId: $0.string(2), text: $0.string(3), syncState: $0.string(4)) }
    }
}

extension SampleProcess {
    /// The texts of the chat lines the app showed as pending (`…11:10 ada: text  (sending)`) in
    /// `output`, each once, in the order first shown.
    static func pendingTexts(in output: String, sender: String) -> [String] {
        var seen: Set<String> = []
        var texts: [String] = []
        for line in output.split(separator: "\n") where line.hasSuffix("  (sending)") && isChatLine(line) {
            guard let range = line.range(of: " \(sender): ") else { continue }
            let text = String(line[range.upperBound...].dropLast("  (sending)".count))
            if seen.insert(text).inserted { texts.append(text) }
        }
        return texts
    }
}
#endif
