import Foundation
import LiveSocial
import Testing

/// `POST /v1/mutations`: made as the token's user, once per idempotency key.
@Suite("Mutations")
struct MutationTests {
    @Test func theActingUserIsTheTokensEvenWhenTheBodyNamesAnother() async throws {
        try await withServer { server in
            let token = try await server.signIn("grace")
            let answer = try await HTTP.send(
                "POST", server.baseURL.appendingPathComponent("v1/mutations"), token: token,
                json: ["mutation": ["kind": "createPost", "targetType": "user", "targetId": "alan", "text": "posted by grace"],
                       "userId": "alan", "authorId": "alan"])
            try #require(answer.status == 200, "\(answer.text)")
            let records = try #require(answer.object?["records"] as? [[String: Any]])
            let post = try #require(records.first { $0["kind"] as? String == "post" })
            #expect(post["authorId"] as? String == "grace")
        }
    }

    @Test func aRepeatedIdempotencyKeyGetsTheFirstAnswerAndStoresNothing() async throws {
        try await withServer { server in
            let token = try await server.signIn("alan")
            let body: [String: Any] = ["mutation": ["kind": "createPost", "targetType": "user", "targetId": "alan", "text": "once"]]
            let url = server.baseURL.appendingPathComponent("v1/mutations")
            let first = try await HTTP.send("POST", url, token: token, headers: ["Idempotency-Key": "k-1"], json: body)
            try #require(first.status == 200, "\(first.text)")
            let fingerprint = try await server.dataFingerprint()
            let again = try await HTTP.send("POST", url, token: token, headers: ["Idempotency-Key": "k-1"], json: body)
            #expect(again.status == 200)
            #expect(again.body == first.body)
            #expect(try await server.dataFingerprint() == fingerprint)
            let other = try await server.signIn("ada")
            let otherUser = try await HTTP.send("POST", url, token: other, headers: ["Idempotency-Key": "k-1"], json: body)
            #expect(otherUser.status == 200)
            #expect(otherUser.body != first.body, "a key is the sending user's own")
        }
    }

    @Test func concurrentRepeatsOfAKeyStoreOnce() async throws {
        try await withServer { server in
            let token = try await server.signIn("alan")
            let before = try await server.server.socialServer.latestSequence()
            let body = Data(#"{"mutation":{"kind":"createPost","targetType":"user","targetId":"alan","text":"race"}}"#.utf8)
            let url = server.baseURL.appendingPathComponent("v1/mutations")
            let answers = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await HTTP.send("POST", url, token: token, headers: ["Idempotency-Key": "race"], body: body).body
                    }
                }
                var all: [Data] = []
                for try await answer in group { all.append(answer) }
                return all
            }
            #expect(Set(answers).count == 1)
            #expect(try await server.server.socialServer.latestSequence() == before + 1)
        }
    }

    @Test func aMissingTargetGets404AndAnOverlongText400() async throws {
        try await withServer { server in
            let token = try await server.signIn("alan")
            let url = server.baseURL.appendingPathComponent("v1/mutations")
            let before = try await server.dataFingerprint()
            let missing = try await HTTP.send("POST", url, token: token, json: ["mutation": ["kind": "deletePost", "id": "no-such-post"]])
            #expect(missing.status == 404, "\(missing.text)")
            #expect(missing.errorCode == "not_found")
            let tooLong = try await HTTP.send(
                "POST", url, token: token,
                json: ["mutation": ["kind": "createPost", "targetType": "user", "targetId": "alan",
                                    "text": String(repeating: "a", count: 10_001)]])
            #expect(tooLong.status == 400)
            #expect(tooLong.errorMessage?.contains("longer than 10000") == true)
            #expect(try await server.dataFingerprint() == before)
        }
    }
}
