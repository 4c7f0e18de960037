import LiveRepository
import LiveSocial

extension EmbeddedServer {
    /// Lets a client request in: waits for the latency, then checks the connection and failure rules.
    func admit(_ kind: ServerRequestKind) async throws {
        guard hub.isConnected else { throw SocialAPIError.offline }
        let latency = self.latency
        if latency > .zero { try await clock.sleep(for: latency) }
        guard hub.isConnected else { throw SocialAPIError.offline }
        if let failure = controls.admit(kind) { throw failure }
    }

    /// Runs database work, turning database errors into server failures.
    func serve<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SocialAPIError {
            throw error
        } catch {
            throw SocialAPIError.serverFailure("database error: \(error)")
        }
    }

    /// The rules requests are checked with (see ``AccessRules``).
    var access: AccessRules { AccessRules(database: database) }

    func serveFetch<Record: CacheRecord>(_ type: Record.Type, id: String, as userId: String) async throws -> Record? {
        try await admit(.fetch)
        return try serve { try access.fetchable(database.load(type, id: id), for: userId) }
    }

    func servePage<Record: CacheRecord>(
        _ query: SocialQuery<Record>, cursor: String?, limit: Int, as userId: String
    ) async throws -> RemotePage<Record> {
        try await admit(.fetchPage)
        guard limit > 0 else { throw SocialAPIError.invalidRequest("a page limit must be positive, not \(limit)") }
        var position: PageCursor?
        if let cursor {
            guard let decoded = PageCursor(encoded: cursor) else {
                throw SocialAPIError.invalidRequest("unknown cursor '\(cursor)'")
            }
            position = decoded
        }
        return try serve {
            let filter = try access.listFilter(query.kind, for: userId)
            return try KeysetPage(query: query.cacheQuery, filter: filter)
                .fetch(in: database, after: position, limit: limit)
        }
    }

    func serveMessages(
        _ query: SocialQuery<Message>, after position: MessagePosition, limit: Int, as userId: String
    ) async throws -> [Message] {
        try await admit(.fetchPage)
        guard limit > 0 else { throw SocialAPIError.invalidRequest("a page limit must be positive, not \(limit)") }
        return try serve {
            _ = try access.listFilter(query.kind, for: userId)
            return try database.read(
                query.cacheQuery, after: StorePosition(sortValue: .real(position.createdAt), id: position.id),
                limit: limit)
        }
    }

    func serveChanges(since sequence: Int64, limit: Int, scope: ChangeScope, as userId: String) async throws -> ChangeLog {
        try await admit(.changes)
        guard limit > 0 else { throw SocialAPIError.invalidRequest("a change limit must be positive, not \(limit)") }
        return try serve {
            if case .messages(let channelId) = scope { try access.requireMessageAccess(channelId, for: userId) }
            return try changeLog(since: sequence, limit: limit, scope: scope, as: userId)
        }
    }

    func serveLatestSequence() async throws -> Int64 {
        try await admit(.latestSequence)
        return try serve { try database.latestSequence() }
    }

    func servePerform(_ mutation: SocialMutation, as userId: String) async throws -> SocialMutationResult {
        try await admit(.mutation)
        let result = try perform(mutation, as: userId)
        if controls.dropsResponse() { throw SocialAPIError.offline }
        return result
    }

    /// The changes in `scope` after `sequence` that `userId` may see: each record once, in its
    /// current state, in the order it last changed. What the user may not see now (see
    /// ``AccessRules``) is left out; the latest sequence and `hasMore` count every entry read.
    func changeLog(since sequence: Int64, limit: Int, scope: ChangeScope = .all, as userId: String) throws -> ChangeLog {
        let entries = try database.changeEntries(after: sequence, scope: scope, limit: limit + 1)
        let hasMore = entries.count > limit
        let page = entries.prefix(limit)
        var last: [SocialRecordKey: ChangeEntry] = [:]
        for entry in page { last[entry.key] = entry }
        var records: [SocialRecord] = []
        var deleted: [SocialRecordKey] = []
        var audiences = AudienceResolver(database: database)
        for (key, change) in last.sorted(by: { $0.value.sequence < $1.value.sequence }) {
            if !change.isRemoval, let record = try database.load(key) {
                if try audiences.audience(of: record).admits(userId) { records.append(record) }
            } else if try audiences.audience(ofRemoval: key, channelId: change.channelId).admits(userId) {
                deleted.append(key)
            }
        }
        return ChangeLog(
            records: records, deleted: deleted, latestSequence: page.last?.sequence ?? sequence, hasMore: hasMore)
    }
}
