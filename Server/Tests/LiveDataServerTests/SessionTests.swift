import Foundation
import LiveDataServer
import Testing

/// Health, sign-in, renewal, revocation and expiry, against a server on loopback.
@Suite("Sessions")
struct SessionTests {
    @Test func healthAnswersWithoutAToken() async throws {
        try await withServer { server in
            let answer = try await HTTP.send("GET", server.baseURL.appendingPathComponent("health"))
            #expect(answer.status == 200)
            #expect(answer.object?["status"] as? String == "ok")
        }
    }

    @Test func signInGivesATokenThatExpiresAfterTheLifetime() async throws {
        try await withServer(configure: { $0.tokenLifetime = 600 }) { server in
            let answer = try await HTTP.send(
                "POST", server.baseURL.appendingPathComponent("v1/sessions"),
                json: ["userId": "alan", "password": server.passwords["alan"]!])
            #expect(answer.status == 200)
            let token = try #require(answer.object?["token"] as? String)
            #expect(token.count == 43, "32 random bytes in unpadded base64url")
            #expect(answer.object?["userId"] as? String == "alan")
            #expect(answer.object?["expiresAt"] as? Double == server.clock.now + 600)
            #expect(try await latestSequence(server, token).status == 200)
        }
    }

    @Test func wrongPasswordsAndUnknownUsersGet401() async throws {
        try await withServer { server in
            for (user, password) in [("alan", "not-his-password"), ("nobody", "whatever"), ("alan", "")] {
                let answer = try await HTTP.send(
                    "POST", server.baseURL.appendingPathComponent("v1/sessions"),
                    json: ["userId": user, "password": password])
                #expect(answer.status == 401)
                #expect(answer.errorCode == "unauthorized")
                #expect(!answer.text.contains(password) || password.isEmpty, "the answer never repeats the password")
            }
        }
    }

    @Test func renewGivesANewTokenAndTheOldOneWorksUntilItExpires() async throws {
        try await withServer(configure: { $0.tokenLifetime = 100 }) { server in
            let old = try await server.signIn("grace")
            server.clock.advance(by: 60)
            let answer = try await HTTP.send("POST", server.baseURL.appendingPathComponent("v1/sessions/renew"), token: old)
            #expect(answer.status == 200)
            let new = try #require(answer.object?["token"] as? String)
            #expect(new != old)
            #expect(answer.object?["userId"] as? String == "grace")
            #expect(answer.object?["expiresAt"] as? Double == server.clock.now + 100)
            #expect(try await latestSequence(server, old).status == 200)
            server.clock.advance(by: 41)
            #expect(try await latestSequence(server, old).status == 401, "the old token expired at its own time")
            #expect(try await latestSequence(server, new).status == 200)
            let late = try await HTTP.send("POST", server.baseURL.appendingPathComponent("v1/sessions/renew"), token: old)
            #expect(late.status == 401, "an expired token cannot be renewed")
        }
    }

    @Test func expiredTokensGet401() async throws {
        try await withServer(configure: { $0.tokenLifetime = 30 }) { server in
            let token = try await server.signIn("ada")
            server.clock.advance(by: 29.5)
            #expect(try await latestSequence(server, token).status == 200)
            server.clock.advance(by: 0.5)
            let answer = try await latestSequence(server, token)
            #expect(answer.status == 401)
            #expect(answer.errorCode == "unauthorized")
        }
    }

    @Test func revokingATokenStopsItAtOnceAndNoOtherToken() async throws {
        try await withServer { server in
            let first = try await server.signIn("linus")
            let second = try await server.signIn("linus")
            let answer = try await HTTP.send("DELETE", server.baseURL.appendingPathComponent("v1/sessions"), token: first)
            #expect(answer.status == 204)
            #expect(try await latestSequence(server, first).status == 401)
            #expect(try await latestSequence(server, second).status == 200)
            let renew = try await HTTP.send("POST", server.baseURL.appendingPathComponent("v1/sessions/renew"), token: first)
            #expect(renew.status == 401, "a revoked token cannot be renewed")
        }
    }

    @Test func tokensSurviveARestartOnTheSameFolder() async throws {
        let server = try await TestServer.start()
        let token = try await server.signIn("tim")
        await server.stop(removingFolder: false)
        let again = try await TestServer.start(folder: server.folder)
        let status = try await latestSequence(again, token).status
        await again.stop()
        #expect(status == 200)
        #expect(again.passwords == server.passwords, "the demo users are made once")
    }

    private func latestSequence(_ server: TestServer, _ token: String) async throws -> HTTPAnswer {
        try await HTTP.send("GET", server.baseURL.appendingPathComponent("v1/sequence"), token: token)
    }
}
