import Foundation
import Hummingbird
import LiveRepository
import LiveSocial
import LiveSocialServer
import LiveSocialWire

extension APIResponder {
    /// `GET /v1/records/{kind}/{id}`: `{"record": ..}`, or `{"record": null}` when the record is
    /// absent or not visible to the user (no existence leak).
    func fetchRecord(kind name: String, id: String, connection: EmbeddedServer.Connection) async throws -> Response {
        guard let kind = SocialRecordKind(rawValue: name) else {
            throw APIFailure.invalidRequest(
                "unknown record kind \"\(name)\" (expected one of: \(SocialRecordKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        try checkId(id, "the record id")
        let record = try await Self.fetch(kind.recordType, id: id, connection: connection)
        return Self.json(try SocialWire.encode(RecordBody(record: record)))
    }

    private static func fetch<Record: CacheRecord>(
        _ type: Record.Type, id: String, connection: EmbeddedServer.Connection
    ) async throws -> SocialRecord? {
        guard let record = try await connection.fetch(type, id: id) else { return nil }
        guard let wrapped = SocialRecord(record) else {
            throw APIFailure.serverFailure("a \(type) record has no wire form")
        }
        return wrapped
    }

    /// `POST /v1/pages`: one page of a query.
    func fetchPage(_ request: Request, connection: EmbeddedServer.Connection) async throws -> Response {
        let page = try decode(PageRequest.self, from: try await body(of: request))
        try checkLimit(page.limit)
        if let cursor = page.cursor, cursor.utf8.count > 1_024 {
            throw APIFailure.invalidRequest("the cursor is not one this server gave: it is too long")
        }
        try checkQuery(page.query)
        let body = try await Self.page(page.query.recordKind.recordType, page, connection: connection)
        return Self.json(try SocialWire.encode(body))
    }

    private static func page<Record: CacheRecord>(
        _ type: Record.Type, _ request: PageRequest, connection: EmbeddedServer.Connection
    ) async throws -> PageBody {
        guard let query = request.query.query(of: type) else {
            throw APIFailure.serverFailure("the query kind does not list \(type) records")
        }
        let page = try await connection.fetchPage(query, cursor: request.cursor, limit: request.limit)
        guard let body = PageBody(page) else { throw APIFailure.serverFailure("a \(type) record has no wire form") }
        return body
    }

    /// `POST /v1/messages`: the messages of a messages query after a position.
    func fetchMessages(_ request: Request, connection: EmbeddedServer.Connection) async throws -> Response {
        let messages = try decode(MessagesRequest.self, from: try await body(of: request))
        try checkLimit(messages.limit)
        try checkQuery(messages.query)
        try checkId(messages.after.id, "the position's message id", allowEmpty: true)
        guard !messages.after.createdAt.isNaN else { throw APIFailure.invalidRequest("the position's time must be a number, \"Infinity\" or \"-Infinity\"") }
        guard let query = messages.query.query(of: Message.self) else {
            throw APIFailure.invalidRequest("at \"query.kind\": POST /v1/messages takes a messages query")
        }
        let found = try await connection.fetchMessages(query, after: messages.after, limit: messages.limit)
        return Self.json(try SocialWire.encode(MessagesBody(messages: found)))
    }

    /// `GET /v1/changes?since=..&limit=..&scope=..&channelId=..`: the change log after a sequence number.
    func changes(_ request: Request, connection: EmbeddedServer.Connection) async throws -> Response {
        // Hummingbird percent-decodes the values; a repeated name keeps its last value.
        var parameters: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { parameters[String(name)] = String(value) }
        let changes: ChangesRequest
        do {
            changes = try ChangesRequest(parameters: parameters)
        } catch {
            throw APIFailure.invalidRequest(error.message)
        }
        try checkLimit(changes.limit)
        guard changes.since >= 0 else {
            throw APIFailure.invalidRequest("query parameter \"since\" must not be negative, found \(changes.since)")
        }
        if case .messages(let channelId) = changes.scope { try checkId(channelId, "the channel id") }
        let log = try await connection.changes(since: changes.since, limit: changes.limit, scope: changes.scope)
        return Self.json(try SocialWire.encode(log))
    }

    // MARK: Checks

    /// Decodes a body, answering 400 with what is wrong and where.
    func decode<Body: Decodable>(_ type: Body.Type, from data: Data) throws -> Body {
        do {
            return try SocialWire.decode(type, from: data)
        } catch {
            throw APIFailure.invalidRequest(error.message)
        }
    }

    /// A page or change limit must be between 1 and `maxLimit`.
    func checkLimit(_ limit: Int) throws {
        guard (1...configuration.maxLimit).contains(limit) else {
            throw APIFailure.invalidRequest("\"limit\" must be between 1 and \(configuration.maxLimit), found \(limit)")
        }
    }

    /// An id must be a few characters (at most `maxIdLength`), and not empty unless allowed.
    func checkId(_ id: String, _ what: String, allowEmpty: Bool = false) throws {
        guard allowEmpty || !id.isEmpty else { throw APIFailure.invalidRequest("\(what) must not be empty") }
        guard id.count <= configuration.maxIdLength else {
            throw APIFailure.invalidRequest("\(what) is longer than \(configuration.maxIdLength) characters")
        }
    }

    /// A query's ids and names must be of a sane length.
    func checkQuery(_ query: SocialQueryKind) throws {
        for id in query.mentionedIds { try checkId(id, "an id of the query") }
    }
}
