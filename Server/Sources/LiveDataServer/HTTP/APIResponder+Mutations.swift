import Foundation
import HTTPTypes
import Hummingbird
import LiveDataPostgres
import LiveSocial
import LiveSocialServer
import LiveSocialWire

extension APIResponder {
    /// `POST /v1/mutations`: applies a change as the token's user (never a user named in the body).
    ///
    /// With an `Idempotency-Key` header, a repeat of the key by the same user gets the first
    /// answer and changes nothing: the answer is stored with the changes, in one transaction.
    func perform(_ request: Request, userId: String, connection: EmbeddedServer.Connection) async throws -> Response {
        let mutation = try decode(MutationRequest.self, from: try await body(of: request)).mutation
        for id in mutation.mentionedIds { try checkId(id, "an id of the mutation") }
        for text in mutation.texts where text.count > configuration.maxTextLength {
            throw APIFailure.invalidRequest("a text of the mutation is longer than \(configuration.maxTextLength) characters")
        }
        let apply: @Sendable () async throws -> [UInt8] = {
            Array(try SocialWire.encode(try await connection.perform(mutation)))
        }
        guard let key = request.headers[Self.idempotencyKey] else {
            return Self.json(Data(try await apply()))
        }
        try checkId(key, "the Idempotency-Key header")
        let answer = try await server.idempotency.answer(userId: userId, key: key) {
            try await Self.retryingLostConnections(for: configuration.lostConnectionRetryLimit) {
                try await connection.perform(mutation, idempotencyKey: key) { Array(try SocialWire.encode($0)) }
            }
        }
        return Self.json(Data(answer))
    }

    /// Runs `body` again, 100 ms apart, while it fails because its PostgreSQL transaction lost
    /// the connection (``PostgresStoreError/connectionLost(_:)``: the database restarting), for
    /// at most `limit`; then its last error stands.
    ///
    /// Only for a mutation with an idempotency key: its answer is stored in the transaction of its
    /// changes, so a run whose commit did happen answers the retry with the first answer. Without
    /// the retry the client would get a 500 for a request that a moment later would have worked.
    /// It runs in the idempotency gate's task, not the request's: a client that gives up and
    /// sends the key again waits for this run's answer.
    static func retryingLostConnections<T: Sendable>(
        for limit: Duration, _ body: () async throws -> T
    ) async throws -> T {
        let deadline = ContinuousClock.now + limit
        while true {
            do {
                return try await PostgresServerStore.revealingStoreErrors(body)
            } catch let error as PostgresStoreError {
                // The case, not the text: the store classified postgres-nio's error.
                if case .connectionLost = error, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                    continue
                }
                // A server failure with the store's text, as the rules report it.
                throw APIFailure.serverFailure("database error: \(error)")
            }
        }
    }

    static let idempotencyKey = HTTPField.Name(WireRoute.idempotencyKeyHeader)!
}
