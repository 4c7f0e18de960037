import Foundation
import LiveSocial
import LiveSocialWire

/// Sends the API's requests with the session's token: renews the token once when the server
/// refuses it, sends again after a connection lost before its answer, and maps every failure.
struct Requester: Sendable {
    let endpoint: Endpoint
    let transport: any HTTPTransport
    let configuration: NetworkConfiguration
    let keeper: SessionKeeper

    /// Sends a request and returns its successful answer.
    ///
    /// - Parameters:
    ///   - idempotencyKey: sent as `Idempotency-Key`, the same on every try.
    ///   - target: the record a mutation acts on, for a `not_found` answer without a key.
    /// - Throws: ``LiveSocial/SocialAPIError`` (`.rejected("signed out: ..")` once the session
    ///   ended), or `CancellationError`.
    func send(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, idempotencyKey: String? = nil,
        target: SocialRecordKey? = nil
    ) async throws -> HTTPResponse {
        var renewed = false
        var lostAnswers = 0
        while true {
            let token = try await keeper.token()
            var request = endpoint.request(method, path, query: query, body: body, timeout: configuration.requestTimeout)
            request.headers[WireRoute.authorizationHeader] = "Bearer \(token)"
            if let idempotencyKey { request.headers[WireRoute.idempotencyKeyHeader] = idempotencyKey }
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch {
                if ResponseMapping.mayHaveLostAnAnswer(error), lostAnswers < configuration.retriesAfterLostConnection, !Task.isCancelled {
                    lostAnswers += 1
                    continue
                }
                throw ResponseMapping.error(forTransportFailure: error)
            }
            if response.status == 401 {
                if renewed {
                    // A token refused right after its renewal: the session cannot be used.
                    await keeper.signOut(reason: "the server refused the renewed session")
                    throw SocialAPIError.rejected("signed out: the server refused the renewed session")
                }
                renewed = true
                _ = try await keeper.renew(replacing: token)
                continue
            }
            guard response.isSuccess else { throw ResponseMapping.error(for: response, target: target) }
            return response
        }
    }

    /// Sends a `GET` and decodes the answer.
    func get<Answer: Decodable>(_ path: String, query: [URLQueryItem] = [], as answer: Answer.Type) async throws -> Answer {
        try ResponseMapping.decode(answer, from: try await send("GET", path, query: query))
    }

    /// Sends a `POST` with a JSON body and decodes the answer.
    func post<Answer: Decodable>(
        _ path: String, json: some Encodable, as answer: Answer.Type, idempotencyKey: String? = nil, target: SocialRecordKey? = nil
    ) async throws -> Answer {
        let body: Data
        do {
            body = try SocialWire.encode(json)
        } catch {
            throw SocialAPIError.invalidRequest("the request could not be encoded: \(error)")
        }
        let response = try await send("POST", path, body: body, idempotencyKey: idempotencyKey, target: target)
        return try ResponseMapping.decode(answer, from: response)
    }
}
