import Foundation
import Testing

/// Records, pages, messages, changes and the sequence, read over HTTP.
@Suite("Reads")
struct ReadTests {
    @Test func aRecordIsItsWireFormOrNull() async throws {
        try await withServer { server in
            let token = try await server.signIn("alan")
            let found = try await HTTP.send("GET", server.baseURL.appendingPathComponent("v1/records/user/ada"), token: token)
            #expect(found.status == 200)
            let record = try #require(found.object?["record"] as? [String: Any])
            #expect(record["kind"] as? String == "user")
            #expect(record["id"] as? String == "ada")
            let absent = try await HTTP.send("GET", server.baseURL.appendingPathComponent("v1/records/user/nobody"), token: token)
            #expect(absent.status == 200)
            #expect(absent.object?["record"] is NSNull)
            let unknown = try await HTTP.send("GET", server.baseURL.appendingPathComponent("v1/records/users/ada"), token: token)
            #expect(unknown.status == 400)
            #expect(unknown.errorMessage?.contains("unknown record kind \"users\"") == true)
        }
    }

    @Test func pagesFollowTheirCursorsToTheEnd() async throws {
        try await withServer { server in
            let token = try await server.signIn("alan")
            let url = server.baseURL.appendingPathComponent("v1/pages")
            var cursor: Any = NSNull()
            var ids: [String] = []
            for _ in 0..<10 {
                let answer = try await HTTP.send(
                    "POST", url, token: token,
                    json: ["query": ["kind": "userFeed", "userId": "alan"], "cursor": cursor, "limit": 2])
                try #require(answer.status == 200, "\(answer.text)")
                let records = try #require(answer.object?["records"] as? [[String: Any]])
                ids += records.compactMap { $0["id"] as? String }
                guard let next = answer.object?["nextCursor"] as? String else { break }
                cursor = next
            }
            #expect(!ids.isEmpty)
            #expect(Set(ids).count == ids.count, "no record twice")
            let bad = try await HTTP.send(
                "POST", url, token: token, json: ["query": ["kind": "userFeed", "userId": "alan"], "cursor": "nonsense", "limit": 2])
            #expect(bad.status == 400)
            #expect(bad.errorCode == "invalid_request")
        }
    }

    /// A chat opened at its newest messages asks from the end of history, `"Infinity"`: the
    /// sample's first request after `/open` (refused as "not finite" before).
    @Test func messagesFromTheEndOfHistory() async throws {
        try await withServer { server in
            let token = try await server.signIn("alan")
            let newest = try await HTTP.send(
                "POST", server.baseURL.appendingPathComponent("v1/messages"), token: token,
                json: ["query": ["kind": "messages", "channelId": "general", "newestFirst": true],
                       "after": ["createdAt": "Infinity", "id": ""], "limit": 3])
            try #require(newest.status == 200, "\(newest.text)")
            #expect((newest.object?["messages"] as? [[String: Any]])?.count == 3)
            let refused = try await HTTP.send(
                "POST", server.baseURL.appendingPathComponent("v1/messages"), token: token,
                json: ["query": ["kind": "messages", "channelId": "general", "newestFirst": true],
                       "after": ["createdAt": "soon", "id": ""], "limit": 3])
            #expect(refused.status == 400, "\(refused.text)")
        }
    }

    @Test func messagesChangesAndTheSequence() async throws {
        try await withServer { server in
            let token = try await server.signIn("alan")
            let messages = try await HTTP.send(
                "POST", server.baseURL.appendingPathComponent("v1/messages"), token: token,
                json: ["query": ["kind": "messages", "channelId": "general", "newestFirst": true],
                       "after": ["createdAt": 1e12, "id": ""], "limit": 5])
            try #require(messages.status == 200, "\(messages.text)")
            let list = try #require(messages.object?["messages"] as? [[String: Any]])
            #expect(list.count == 5)
            #expect(list.allSatisfy { $0["channelId"] as? String == "general" })
            let sequence = try await HTTP.send("GET", server.baseURL.appendingPathComponent("v1/sequence"), token: token)
            let latest = try #require(sequence.object?["latestSequence"] as? Int)
            #expect(latest > 0)
            let url = URL(string: server.baseURL.absoluteString + "/v1/changes?since=\(latest - 3)&limit=10&scope=all")!
            let changes = try await HTTP.send("GET", url, token: token)
            try #require(changes.status == 200, "\(changes.text)")
            #expect(changes.object?["latestSequence"] as? Int == latest)
            #expect(changes.object?["hasMore"] as? Bool == false)
            let scoped = URL(string: server.baseURL.absoluteString + "/v1/changes?since=0&limit=3&scope=messages&channelId=general")!
            let channelChanges = try await HTTP.send("GET", scoped, token: token)
            try #require(channelChanges.status == 200, "\(channelChanges.text)")
            #expect(channelChanges.object?["hasMore"] as? Bool == true)
        }
    }
}
