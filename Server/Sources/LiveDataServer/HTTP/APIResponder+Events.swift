import Foundation
import Hummingbird
import LiveSocial
import LiveSocialServer
import LiveSocialWire
import NIOCore

extension APIResponder {
    /// What an event stream writes next: an event of the user's connection, or a heartbeat.
    enum StreamItem: Sendable {
        case event(SocialEvent)
        case heartbeat
    }

    /// `GET /v1/events`: the user's real-time events as Server-Sent Events.
    ///
    /// The stream is `connection.events()`: it starts with `event: connected`, then each change
    /// the user may see as `id: <sequence>`, `event: created|updated|deleted` and
    /// `data: <event json>`. A `: heartbeat` comment goes out every `heartbeatInterval` so that
    /// a client (and any proxy) can tell a quiet stream from a dead one. A `disconnected` event
    /// ends the stream: the client reconnects and catches up through the change log.
    func eventStream(connection: EmbeddedServer.Connection) -> Response {
        let interval = configuration.heartbeatInterval
        let streams = server.streams
        let frames = server.frames
        let body = ResponseBody { writer in
            let (items, continuation) = AsyncStream<StreamItem>.makeStream(bufferingPolicy: .unbounded)
            let registration = streams.add { continuation.finish() }
            defer { streams.remove(registration) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in connection.events() {
                        continuation.yield(.event(event))
                        if case .disconnected = event { break }
                    }
                    continuation.finish()
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: interval)
                        continuation.yield(.heartbeat)
                    }
                }
                for await item in items {
                    try await writer.write(try Self.buffer(item, frames: frames))
                }
                group.cancelAll()
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"],
            body: body)
    }

    /// The frame of `item` to write: a change event's from `frames` (encoded by the first stream
    /// that writes it), a heartbeat's or a connection event's made here.
    static func buffer(_ item: StreamItem, frames: FrameCache) throws -> ByteBuffer {
        guard case .event(let event) = item else { return ByteBuffer(bytes: try frame(item)) }
        return try frames.frame(of: event) { ByteBuffer(bytes: try frame(item)) }
    }

    /// The bytes of one item in the Server-Sent Events format.
    static func frame(_ item: StreamItem) throws -> Data {
        switch item {
        case .heartbeat:
            return Data(": heartbeat\n\n".utf8)
        case .event(let event):
            var text = ""
            if let sequence = event.sequence { text += "id: \(sequence)\n" }
            text += "event: \(event.wireName)\n"
            // JSON from JSONEncoder has no raw newline, so the data fits on one `data:` line.
            text += "data: " + String(decoding: try SocialWire.encode(event), as: UTF8.self) + "\n\n"
            return Data(text.utf8)
        }
    }
}
