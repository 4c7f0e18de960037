#if canImport(Glibc)
import Foundation
import Glibc
import Testing

@testable import LiveSocialNetwork

/// The Linux event-stream transport against a listening socket of the test's own, on loopback.
@Suite(.timeLimit(.minutes(1)))
struct SocketStreamConnectionTests {
    @Test func theRequestIsWrittenAndTheAnswerStreamsBack() async throws {
        let listener = try LoopbackListener()
        let request = HTTPRequest(
            method: "GET", url: try #require(URL(string: "http://127.0.0.1:\(listener.port)/v1/events?since=3")),
            headers: ["Authorization": "Bearer t"], body: nil, timeout: 5)
        let stream = SocketStreamConnection.open(request)
        let peer = try await listener.accept()
        let sent = try await peer.readHead()
        #expect(sent.hasPrefix("GET /v1/events?since=3 HTTP/1.1\r\n"))
        #expect(sent.contains("Host: 127.0.0.1:\(listener.port)\r\n"))
        #expect(sent.contains("Authorization: Bearer t\r\n"))

        try peer.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        try peer.write("11\r\nevent: connected\n\r\n")
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == .head(HTTPResponse(status: 200, headers: ["transfer-encoding": "chunked"])))
        #expect(try await iterator.next() == .bytes(Data("event: connected\n".utf8)))
        try peer.write("0\r\n\r\n")
        #expect(try await iterator.next() == nil, "the last chunk ends the stream")
    }

    @Test func aConnectionCutMidAnswerThrows() async throws {
        let listener = try LoopbackListener()
        let stream = SocketStreamConnection.open(
            HTTPRequest(method: "GET", url: try #require(URL(string: "http://127.0.0.1:\(listener.port)/")), headers: [:], body: nil, timeout: 5))
        let peer = try await listener.accept()
        _ = try await peer.readHead()
        try peer.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab")
        peer.close()
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == .head(HTTPResponse(status: 200, headers: ["transfer-encoding": "chunked"])))
        await #expect(throws: URLError.self) {
            while try await iterator.next() != nil {}
        }
    }

    /// The RST comes while the connection's thread waits in `poll(2)`, after it read the head.
    @Test func aResetAfterPartOfTheAnswerIsALostConnection() async throws {
        let listener = try LoopbackListener()
        let stream = SocketStreamConnection.open(
            HTTPRequest(method: "GET", url: try #require(URL(string: "http://127.0.0.1:\(listener.port)/")), headers: [:], body: nil, timeout: 5))
        let peer = try await listener.accept()
        _ = try await peer.readHead()
        try peer.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab")
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == .head(HTTPResponse(status: 200, headers: ["transfer-encoding": "chunked"])))
        #expect(try await iterator.next() == .bytes(Data("ab".utf8)))
        peer.reset()
        await #expect(throws: URLError(.networkConnectionLost)) {
            while try await iterator.next() != nil {}
        }
        #expect(ProcessResources.socketsConnected(toPort: listener.port) == 0, "closed before the stream ended")
    }

    /// A consumer that stops iterating closes the connection, from its thread, once that thread
    /// is out of `poll(2)`.
    @Test func aStreamLeftClosesItsSocket() async throws {
        let listener = try LoopbackListener()
        var stream: AsyncThrowingStream<StreamPart, any Error>? = SocketStreamConnection.open(
            HTTPRequest(method: "GET", url: try #require(URL(string: "http://127.0.0.1:\(listener.port)/")), headers: [:], body: nil, timeout: 5))
        let peer = try await listener.accept()
        _ = try await peer.readHead()
        try peer.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        var iterator = stream?.makeAsyncIterator()
        #expect(try await iterator?.next() == .head(HTTPResponse(status: 200, headers: ["transfer-encoding": "chunked"])))
        #expect(ProcessResources.socketsConnected(toPort: listener.port) == 1)
        iterator = nil
        stream = nil
        #expect(try await ProcessResources.waitUntil { ProcessResources.socketsConnected(toPort: listener.port) == 0 })
    }

    @Test func aRefusedConnectionThrows() async throws {
        let port = try LoopbackListener().port  // closed again at once: nothing listens there
        let stream = SocketStreamConnection.open(
            HTTPRequest(method: "GET", url: try #require(URL(string: "http://127.0.0.1:\(port)/")), headers: [:], body: nil, timeout: 5))
        await #expect(throws: URLError.self) {
            for try await _ in stream {}
        }
    }
}
#endif
