import Foundation
import HTTPTypes
import Hummingbird
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
            try await connection.perform(mutation, idempotencyKey: key) { Array(try SocialWire.encode($0)) }
        }
        return Self.json(Data(answer))
    }

    static let idempotencyKey = HTTPField.Name(WireRoute.idempotencyKeyHeader)!
}
