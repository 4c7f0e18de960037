import Foundation
import Hummingbird
import LiveSocial
import LiveSocialServer
import LiveSocialWire
import NIOCore

/// Answers every request: finds its route, checks its token and rate limit, and turns every
/// failure into the contract's JSON error body. Nothing thrown escapes as a bare 500.
struct APIResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let server: LiveDataServer
    var configuration: ServerConfiguration { server.configuration }

    /// The routes: a path pattern (`*` matches one segment) and the methods it answers.
    enum Route: CaseIterable {
        case health, sessions, renew, record, pages, messages, changes, sequence, mutations, events

        var pattern: [String] {
            switch self {
            case .health: ["health"]
            case .sessions: ["v1", "sessions"]
            case .renew: ["v1", "sessions", "renew"]
            case .record: ["v1", "records", "*", "*"]
            case .pages: ["v1", "pages"]
            case .messages: ["v1", "messages"]
            case .changes: ["v1", "changes"]
            case .sequence: ["v1", "sequence"]
            case .mutations: ["v1", "mutations"]
            case .events: ["v1", "events"]
            }
        }

        var methods: [HTTPRequest.Method] {
            switch self {
            case .health, .record, .changes, .sequence, .events: [.get]
            case .sessions: [.post, .delete]
            case .renew, .pages, .messages, .mutations: [.post]
            }
        }

        /// The route of `segments` and the values of its `*` segments (percent-decoded), if any.
        static func match(_ segments: [Substring]) -> (Route, [String])? {
            for route in allCases where route.pattern.count == segments.count {
                var values: [String] = []
                var matches = true
                for (pattern, segment) in zip(route.pattern, segments) {
                    if pattern == "*" {
                        guard let value = String(segment).removingPercentEncoding, !value.isEmpty else {
                            matches = false
                            break
                        }
                        values.append(value)
                    } else if pattern != segment {
                        matches = false
                        break
                    }
                }
                if matches { return (route, values) }
            }
            return nil
        }
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        do {
            return try await route(request)
        } catch let failure as APIFailure {
            return Self.response(for: failure)
        } catch let error as SocialAPIError {
            return Self.response(for: APIFailure(error))
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            return Self.response(for: .tooLarge(limit: configuration.maxBodyBytes))
        } catch {
            // Not the error's text: it could quote a body. The type is enough to look into it.
            return Self.response(for: .serverFailure("the server failed on this request (\(type(of: error)))"))
        }
    }

    private func route(_ request: Request) async throws -> Response {
        let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        guard let (route, values) = Route.match(segments) else {
            throw APIFailure.notFound("no route \(request.method.rawValue) \(request.uri.path)")
        }
        guard route.methods.contains(request.method) else {
            throw APIFailure.methodNotAllowed(request.method, path: request.uri.path, allowed: route.methods)
        }
        switch (route, request.method) {
        case (.health, _):
            return Self.json(try SocialWire.encode(HealthBody()))
        case (.sessions, .post):
            return try await signIn(request)
        default:
            break
        }
        let (token, userId) = try authenticate(request)
        if let wait = server.limiter.admit(token.digest) { throw APIFailure.rateLimited(retryAfter: wait) }
        let connection = server.socialServer.connection(userId: userId)
        switch route {
        case .sessions: return try signOut(token)
        case .renew: return try renew(token)
        case .sequence:
            let latest = try await connection.latestSequence()
            return Self.json(try SocialWire.encode(SequenceBody(latestSequence: latest)))
        case .record: return try await fetchRecord(kind: values[0], id: values[1], connection: connection)
        case .pages: return try await fetchPage(request, connection: connection)
        case .messages: return try await fetchMessages(request, connection: connection)
        case .changes: return try await changes(request, connection: connection)
        case .mutations: return try await perform(request, userId: userId, connection: connection)
        case .events: return eventStream(connection: connection)
        case .health: throw APIFailure.serverFailure("unreachable route")
        }
    }

    /// The token of `Authorization: Bearer <token>` and its user; 401 when missing or not working.
    private func authenticate(_ request: Request) throws -> (SessionToken, String) {
        guard let header = request.headers[.authorization] else {
            throw APIFailure.unauthorized("this request needs a session token: sign in with POST /v1/sessions")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty, parts[1].count <= 256 else {
            throw APIFailure.unauthorized("the Authorization header must read \"Bearer <token>\"")
        }
        let token = SessionToken(value: String(parts[1]).trimmingCharacters(in: .whitespaces))
        guard let userId = try server.identity.userId(forToken: token) else {
            throw APIFailure.unauthorized("the session token is unknown, expired or revoked: sign in again")
        }
        return (token, userId)
    }

    // MARK: Bodies

    /// The request body, at most `maxBodyBytes`; 413 beyond.
    func body(of request: Request) async throws -> Data {
        let limit = configuration.maxBodyBytes
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIFailure.tooLarge(limit: limit)
        }
        let buffer = try await request.body.collect(upTo: limit)
        return Data(buffer.readableBytesView)
    }

    /// A 200 answer with a JSON body.
    static func json(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The contract's error body for `failure`.
    static func response(for failure: APIFailure) -> Response {
        let data = (try? SocialWire.encode(failure.body)) ?? Data(#"{"error":{"code":"server_failure","message":"?"}}"#.utf8)
        return json(data, status: failure.status, headers: failure.headers)
    }
}
