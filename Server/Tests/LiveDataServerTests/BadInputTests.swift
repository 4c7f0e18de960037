import Foundation
import Testing

/// Bad input gets a 4xx with a JSON error saying what is wrong, stores nothing, and the server
/// keeps serving.
@Suite("Bad input")
struct BadInputTests {
    @Test func malformedSignInBodiesGet400SayingWhatIsWrong() async throws {
        try await withServer { server in
            let url = server.baseURL.appendingPathComponent("v1/sessions")
            let cases: [(body: String, says: String)] = [
                ("", "not valid JSON"),
                ("{", "not valid JSON"),
                ("[]", "expected"),
                (#"{"userId":"alan"}"#, "missing field \"password\""),
                (#"{"userId":7,"password":"x"}"#, "userId"),
                (#"{"userId":null,"password":"x"}"#, "userId"),
            ]
            for (body, says) in cases {
                let answer = try await HTTP.send("POST", url, body: Data(body.utf8))
                #expect(answer.status == 400, "\(body)")
                #expect(answer.errorCode == "invalid_request", "\(body)")
                #expect(answer.errorMessage?.contains(says) == true, "\(body): \(answer.errorMessage ?? answer.text)")
            }
        }
    }

    @Test func oversizedBodiesGet413() async throws {
        try await withServer(configure: { $0.maxBodyBytes = 4_096 }) { server in
            let token = try await server.signIn("alan")
            let before = try await server.dataFingerprint()
            let text = String(repeating: "x", count: 5_000)
            let signIn = try await HTTP.send(
                "POST", server.baseURL.appendingPathComponent("v1/sessions"),
                json: ["userId": "alan", "password": text])
            #expect(signIn.status == 413)
            #expect(signIn.errorCode == "too_large")
            let mutation = try await HTTP.send(
                "POST", server.baseURL.appendingPathComponent("v1/mutations"), token: token,
                json: ["mutation": ["kind": "updateUser", "about": text]])
            #expect(mutation.status == 413)
            #expect(mutation.errorCode == "too_large")
            #expect(try await server.dataFingerprint() == before)
            let health = try await HTTP.send("GET", server.baseURL.appendingPathComponent("health"))
            #expect(health.status == 200, "the server keeps serving")
        }
    }

    @Test func unknownRoutesGet404AndWrongMethods405() async throws {
        try await withServer { server in
            let token = try await server.signIn("alan")
            for path in ["v2/pages", "v1/record/user/alan", "v1/records/user", "", "v1/sessions/renew/now"] {
                let answer = try await HTTP.send("GET", server.baseURL.appendingPathComponent(path), token: token)
                #expect(answer.status == 404, "\(path)")
                #expect(answer.errorCode == "not_found", "\(path)")
            }
            let wrong = try await HTTP.send("PUT", server.baseURL.appendingPathComponent("v1/pages"), token: token)
            #expect(wrong.status == 405)
            #expect(wrong.errorCode == "invalid_request")
            #expect(wrong.header("Allow") == "POST")
        }
    }

    @Test func badChangeParametersGet400() async throws {
        try await withServer { server in
            let token = try await server.signIn("alan")
            let queries = [
                "since=abc&limit=10", "since=0&limit=0", "since=0&limit=-5", "since=0&limit=100000000000000000000",
                "since=0&limit=10&scope=everything", "since=0&limit=10&scope=messages", "since=-1&limit=10",
                "limit=10", "since=0",
            ]
            for query in queries {
                let url = URL(string: server.baseURL.absoluteString + "/v1/changes?" + query)!
                let answer = try await HTTP.send("GET", url, token: token)
                #expect(answer.status == 400, "\(query)")
                #expect(answer.errorCode == "invalid_request", "\(query)")
                #expect(answer.errorMessage?.isEmpty == false)
            }
        }
    }
}
