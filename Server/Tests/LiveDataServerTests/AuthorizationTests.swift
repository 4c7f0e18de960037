import Foundation
import Testing

/// The domain's authorization over HTTP: a private channel (`ada-alan`) is invisible to
/// non-members in fetches, lists, change logs and event streams; a public channel's messages are
/// for its members (`random`: ada, alan, grace and linus); only authors change their messages and posts.
@Suite("Authorization over HTTP")
struct AuthorizationTests {
    private func post(_ server: TestServer, _ path: String, _ token: String, _ body: [String: Any]) async throws -> HTTPAnswer {
        try await HTTP.send("POST", server.baseURL.appendingPathComponent(path), token: token, json: body)
    }

    private func get(_ server: TestServer, _ path: String, _ token: String) async throws -> HTTPAnswer {
        try await HTTP.send("GET", URL(string: server.baseURL.absoluteString + "/" + path)!, token: token)
    }

    /// The id of a message in `channelId`, read by a member.
    private func messageId(in channelId: String, _ server: TestServer, member token: String) async throws -> (id: String, author: String) {
        let answer = try await post(server, "v1/messages", token, [
            "query": ["kind": "messages", "channelId": channelId], "after": ["createdAt": 4e9, "id": ""], "limit": 1,
        ])
        let message = try #require((answer.object?["messages"] as? [[String: Any]])?.first, "\(answer.text)")
        return (try #require(message["id"] as? String), try #require(message["userId"] as? String))
    }

    @Test func aPrivateChannelIsInvisibleToNonMembersInFetchesListsAndChangeLogs() async throws {
        try await withServer { server in
            let alan = try await server.signIn("alan")
            let grace = try await server.signIn("grace")
            let message = try await messageId(in: "ada-alan", server, member: alan)
            for (path, member, stranger) in [("v1/records/channel/ada-alan", alan, grace), ("v1/records/message/\(message.id)", alan, grace)] {
                let seen = try await get(server, path, member)
                #expect(seen.object?["record"] is [String: Any], "\(path) for a member")
                let hidden = try await get(server, path, stranger)
                #expect(hidden.status == 200)
                #expect(hidden.object?["record"] is NSNull, "\(path) for a non-member: \(hidden.text)")
            }
            for (token, sees) in [(alan, true), (grace, false)] {
                let page = try await post(server, "v1/pages", token, ["query": ["kind": "channels"], "limit": 50])
                let ids = (page.object?["records"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                #expect(ids.contains("ada-alan") == sees, "\(ids)")
                let log = try await get(server, "v1/changes?since=0&limit=500", token)
                #expect(log.text.contains("ada-alan") == sees)
            }
            let messages = try await post(server, "v1/messages", grace, [
                "query": ["kind": "messages", "channelId": "ada-alan"], "after": ["createdAt": 4e9, "id": ""], "limit": 5,
            ])
            #expect(messages.status == 404)
            #expect(messages.errorCode == "not_found")
            let scoped = try await get(server, "v1/changes?since=0&limit=10&scope=messages&channelId=ada-alan", grace)
            #expect(scoped.status == 404)
        }
    }

    @Test func aPublicChannelsMessagesAreForItsMembers() async throws {
        try await withServer { server in
            let margaret = try await server.signIn("margaret")
            let before = try await server.dataFingerprint()
            let read = try await post(server, "v1/messages", margaret, [
                "query": ["kind": "messages", "channelId": "random"], "after": ["createdAt": 4e9, "id": ""], "limit": 5,
            ])
            #expect(read.status == 422)
            #expect(read.errorCode == "rejected")
            let send = try await post(server, "v1/mutations", margaret, ["mutation": [
                "kind": "sendMessage", "channelId": "random", "clientRequestId": "m-1", "type": "text", "text": "let me in",
            ]])
            #expect(send.status == 422)
            #expect(try await server.dataFingerprint() == before, "nothing stored")
            let sneak = try await post(server, "v1/mutations", margaret, ["mutation": [
                "kind": "sendMessage", "channelId": "ada-alan", "clientRequestId": "m-2", "type": "text", "text": "hi",
            ]])
            #expect(sneak.status == 404, "a private channel answers as a missing one")
            #expect(try await server.dataFingerprint() == before, "nothing stored")
        }
    }

    @Test func onlyAuthorsChangeTheirMessagesAndPosts() async throws {
        try await withServer { server in
            let alan = try await server.signIn("alan")
            let grace = try await server.signIn("grace")
            let message = try await messageId(in: "general", server, member: alan)
            let other = message.author == "grace" ? alan : grace
            let before = try await server.dataFingerprint()
            let edit = try await post(server, "v1/mutations", other, ["mutation": ["kind": "editMessage", "id": message.id, "text": "mine now"]])
            #expect(edit.status == 422, "\(edit.text)")
            #expect(edit.errorCode == "rejected")
            let delete = try await post(server, "v1/mutations", other, ["mutation": ["kind": "deleteMessage", "id": message.id]])
            #expect(delete.status == 422)
            let created = try await post(server, "v1/mutations", alan, ["mutation": [
                "kind": "createPost", "targetType": "user", "targetId": "alan", "text": "alan's own",
            ]])
            let postId = try #require((created.object?["records"] as? [[String: Any]])?.first { $0["kind"] as? String == "post" }?["id"] as? String)
            let afterPost = try await server.dataFingerprint()
            #expect(afterPost != before)
            let update = try await post(server, "v1/mutations", grace, ["mutation": ["kind": "updatePost", "id": postId, "text": "grace's"]])
            #expect(update.status == 422)
            #expect(try await server.dataFingerprint() == afterPost)
        }
    }

    @Test func aPrivateChannelsEventsNeverReachANonMembersStream() async throws {
        try await withServer { server in
            let ada = try await server.signIn("ada")
            let reader = EventStreamReader(url: server.baseURL, token: try await server.signIn("grace"))
            defer { reader.close() }
            #expect(await reader.line { $0 == "event: connected" } != nil)
            for (channel, id) in [("ada-alan", "private-1"), ("general", "public-1")] {
                let sent = try await post(server, "v1/mutations", ada, ["mutation": [
                    "kind": "sendMessage", "channelId": channel, "clientRequestId": id, "type": "text", "text": "in \(channel)",
                ]])
                try #require(sent.status == 200, "\(sent.text)")
            }
            // Events arrive in order: everything before the public message is what grace saw of the private one.
            var lines: [String] = []
            #expect(await reader.line { line in
                lines.append(line)
                return line.contains("public-1")
            } != nil)
            #expect(!lines.contains { $0.contains("ada-alan") || $0.contains("private-1") }, "\(lines)")
        }
    }
}
