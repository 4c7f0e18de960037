import Foundation
import Testing

/// `GET /v1/events`: `connected` first, the user's changes with their sequence as `id:`, and
/// heartbeats on a quiet stream.
@Suite("Event stream")
struct EventStreamTests {
    @Test func theStreamStartsConnectedAndSendsHeartbeats() async throws {
        try await withServer(configure: { $0.heartbeatInterval = .milliseconds(50) }) { server in
            let reader = EventStreamReader(url: server.baseURL, token: try await server.signIn("alan"))
            defer { reader.close() }
            let first = await reader.line { !$0.isEmpty }
            #expect(first == "event: connected")
            #expect(reader.status == 200)
            #expect(await reader.line { $0.hasPrefix("data:") } == #"data: {"kind":"connected"}"#)
            #expect(await reader.line { $0 == ": heartbeat" } != nil)
        }
    }

    @Test func aChangeByAnotherUserArrivesWithItsSequence() async throws {
        try await withServer { server in
            let reader = EventStreamReader(url: server.baseURL, token: try await server.signIn("alan"))
            defer { reader.close() }
            #expect(await reader.line { $0 == "event: connected" } != nil)
            let grace = try await server.signIn("grace")
            let sent = try await HTTP.send(
                "POST", server.baseURL.appendingPathComponent("v1/mutations"), token: grace,
                headers: ["Idempotency-Key": "stream-1"],
                json: ["mutation": ["kind": "sendMessage", "channelId": "general", "clientRequestId": "stream-1",
                                    "type": "text", "text": "hello from grace"]])
            try #require(sent.status == 200, "\(sent.text)")
            let sequence = try #require(sent.object?["sequence"] as? Int)
            // The message's event, among the others of the send (its channel's new last message).
            var lines: [String] = []
            let data = try #require(await reader.line { line in
                lines.append(line)
                return line.hasPrefix("data: ") && line.contains("hello from grace")
            })
            let id = try #require(Int(lines.dropLast(2).last?.dropFirst("id: ".count) ?? ""), "\(lines)")
            #expect(lines.dropLast().last == "event: created")
            #expect(id <= sequence)
            #expect(data.contains(#""sequence":\#(id)"#))
        }
    }

    @Test func stoppingTheServerEndsOpenStreams() async throws {
        let server = try await TestServer.start()
        let reader = EventStreamReader(url: server.baseURL, token: try await server.signIn("alan"))
        defer { reader.close() }
        #expect(await reader.line { $0 == "event: connected" } != nil)
        await server.stop()
        #expect(await reader.line { _ in false } == nil, "the stream ends with the server")
    }
}
