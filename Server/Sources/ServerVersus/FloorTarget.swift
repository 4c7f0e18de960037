import Foundation
import HTTPTypes
import Hummingbird
import LiveSocial
import LiveSocialWire
import Logging
import NIOCore

/// The floor: the least a Hummingbird server does to broadcast the same bytes to the same
/// streams. `GET /events` answers a Server-Sent Events stream (its first frame the same
/// `connected` event); `POST /broadcast` writes its body, as it came, to every open stream.
/// No token, no database, no per-user audience, no JSON encoding on the server.
final class FloorTarget: BenchTarget {
    let name = "floor (bare Hummingbird SSE)"
    let port: Int
    private let task: Task<Void, any Error>

    private init(port: Int, task: Task<Void, any Error>) {
        self.port = port
        self.task = task
    }

    /// Starts the floor server on a free loopback port.
    static func start() async throws -> FloorTarget {
        let hub = Broadcaster()
        let connected = ByteBuffer(string: try WireEventStream.frame(.connected))
        let router = Router()
        router.get("events") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    let (frames, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .unbounded)
                    let id = hub.add(continuation)
                    defer { hub.remove(id) }
                    try await writer.write(connected)
                    for await frame in frames { try await writer.write(frame) }
                    try await writer.finish(nil)
                })
        }
        router.post("broadcast") { request, _ -> HTTPResponse.Status in
            hub.broadcast(try await request.body.collect(upTo: 1 << 20))
            return .noContent
        }
        var logger = Logger(label: "floor")
        logger.logLevel = .warning
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "floor"),
            onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await application.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw BenchError("the floor server did not start") }
        return FloorTarget(port: port, task: task)
    }

    func streamRequest(index: Int) -> [UInt8] {
        Array("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
    }

    func send(_ number: Int, sender: Int, over connection: HTTPConnection) throws {
        let (status, _) = try connection.send("POST", "/broadcast", body: try Self.payload(number))
        guard status == 204 else { throw BenchError("the floor answered a broadcast with \(status)") }
    }

    /// The frames the real server sends its streams for one message in `general`: the message
    /// created, then the channel updated (its last message, its count), in the same encoding.
    static func payload(_ number: Int) throws -> [UInt8] {
        let time = Date().timeIntervalSince1970
        let text = "bench-\(number)"
        let message = Message(
            id: "msg-\(number + 1_000)", clientRequestId: UUID().uuidString, channelId: "general", userId: "reader-0",
            text: text, createdAt: time, updatedAt: time)
        let channel = Channel(
            id: "general", displayName: "General", type: .community, memberCount: 1_006, messageCount: number + 40,
            lastMessageText: text, lastMessageAt: time, lastActivityAt: time, createdAt: time - 172_000, updatedAt: time)
        let sequence = Int64(10_000 + 2 * number)
        let frames = try WireEventStream.frame(.created(.message(message), sequence: sequence))
            + WireEventStream.frame(.updated(.channel(channel), sequence: sequence + 1))
        return Array(frames.utf8)
    }
}
