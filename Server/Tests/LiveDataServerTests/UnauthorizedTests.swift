import Foundation
import Testing

/// Every endpoint but health and sign-in answers 401 with the contract's error body to a request
/// without a working token: none, a malformed header, an unknown, an expired and a revoked token.
@Suite("401 matrix")
struct UnauthorizedTests {
    /// Every route that needs a token, with a body that would be accepted with one.
    static let endpoints: [(method: String, path: String, body: String?)] = [
        ("POST", "v1/sessions/renew", nil),
        ("DELETE", "v1/sessions", nil),
        ("GET", "v1/records/user/alan", nil),
        ("POST", "v1/pages", #"{"query":{"kind":"channels","includeDeleted":false},"cursor":null,"limit":10}"#),
        ("POST", "v1/messages", #"{"query":{"kind":"messages","channelId":"c"},"after":{"createdAt":0,"id":""},"limit":10}"#),
        ("GET", "v1/changes?since=0&limit=10&scope=all", nil),
        ("GET", "v1/sequence", nil),
        ("POST", "v1/mutations", #"{"mutation":{"kind":"follow","userId":"ada"}}"#),
        ("GET", "v1/events", nil),
    ]

    enum Credential: String, CaseIterable {
        case none, malformedHeader, unknownToken, expiredToken, revokedToken
    }

    @Test(arguments: Credential.allCases)
    func everyEndpointAnswers401(_ credential: Credential) async throws {
        try await withServer(configure: { $0.tokenLifetime = 100 }) { server in
            var authorization: String?
            switch credential {
            case .none: authorization = nil
            case .malformedHeader: authorization = "Token abc"
            case .unknownToken: authorization = "Bearer " + String(repeating: "A", count: 43)
            case .expiredToken:
                authorization = "Bearer " + (try await server.signIn("alan"))
                server.clock.advance(by: 100)
            case .revokedToken:
                let token = try await server.signIn("alan")
                let answer = try await HTTP.send("DELETE", server.baseURL.appendingPathComponent("v1/sessions"), token: token)
                try #require(answer.status == 204)
                authorization = "Bearer " + token
            }
            for endpoint in Self.endpoints {
                let url = URL(string: server.baseURL.absoluteString + "/" + endpoint.path)!
                let answer = try await HTTP.send(
                    endpoint.method, url, authorization: authorization, body: endpoint.body.map { Data($0.utf8) })
                #expect(answer.status == 401, "\(endpoint.method) \(endpoint.path) with \(credential)")
                #expect(answer.errorCode == "unauthorized", "\(endpoint.method) \(endpoint.path): \(answer.text)")
                #expect(answer.header("WWW-Authenticate") == "Bearer")
            }
        }
    }
}
