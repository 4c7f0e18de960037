#if canImport(Glibc)
import Foundation
import Testing

@testable import LiveSocialNetwork

/// `http://` requests on Linux (``SocketRequest``) against a server of the test's own on
/// loopback: answers, resets, cancellation and silence, and what a connection leaves behind.
///
/// Each test names its connections' threads apart, to count them in `/proc/self/task`.
@Suite(.timeLimit(.minutes(1)))
struct SocketRequestTests {
    private static let answer = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Kind: test\r\n\r\nhello"

    private func request(_ port: Int, timeout: Double = 10) throws -> HTTPRequest {
        HTTPRequest(
            method: "POST", url: try #require(URL(string: "http://127.0.0.1:\(port)/v1/mutations")),
            headers: ["Idempotency-Key": "k"], body: Data("{}".utf8), timeout: timeout)
    }

    @Test func theWholeAnswerComesBack() async throws {
        let server = try ScriptedHTTPServer(.answer(Self.answer))
        let response = try await SocketRequest.send(try request(server.port), threadName: "LDt.whole")
        #expect(response == HTTPResponse(status: 200, headers: ["content-length": "5", "x-kind": "test"], body: Data("hello".utf8)))
        var heads = server.requests.makeAsyncIterator()
        let head = try #require(await heads.next())
        #expect(head.hasPrefix("POST /v1/mutations HTTP/1.1\r\n"))
        #expect(head.contains("Idempotency-Key: k\r\n"))
        #expect(head.contains("Content-Length: 2\r\n"))
    }

    /// Part of an answer and the RST after it come together, before the client reads either:
    /// the client reads the bytes and then the reset, and never waits for more. Many times over,
    /// so that some tries find both waiting at the client's first read.
    @Test func dataAndAResetArrivingTogetherAreALostConnection() async throws {
        let server = try ScriptedHTTPServer(.partThenReset("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part of it"))
        for _ in 0..<50 {
            // A reset that went unseen would end as `.timedOut`, after these 5 s of silence.
            await #expect(throws: URLError(.networkConnectionLost)) {
                _ = try await SocketRequest.send(try request(server.port, timeout: 5), threadName: "LDt.reset")
            }
        }
        #expect(ProcessResources.socketsConnected(toPort: server.port) == 0)
    }

    @Test func aResetBeforeTheWholeHeadIsALostConnection() async throws {
        let server = try ScriptedHTTPServer(.partThenReset("HTTP/1.1 200 OK\r\nConte"))
        await #expect(throws: URLError(.networkConnectionLost)) {
            _ = try await SocketRequest.send(try request(server.port, timeout: 5), threadName: "LDt.head")
        }
    }

    @Test func cancellingMidReadThrowsCancellationAndClosesTheSocket() async throws {
        let server = try ScriptedHTTPServer(.silence)
        let request = try request(server.port)
        let sending = Task { try await SocketRequest.send(request, threadName: "LDt.cancel") }
        var heads = server.requests.makeAsyncIterator()
        _ = await heads.next()
        #expect(ProcessResources.socketsConnected(toPort: server.port) == 1, "the request is waiting for its answer")
        #expect(ProcessResources.threads(named: "LDt.cancel") == 1, "its thread waits in poll(2)")
        sending.cancel()
        await #expect(throws: CancellationError.self) { try await sending.value }
        #expect(ProcessResources.socketsConnected(toPort: server.port) == 0, "closed before the request returned")
        #expect(try await ProcessResources.waitUntil { ProcessResources.threads(named: "LDt.cancel") == 0 })
    }

    @Test func aTaskCancelledBeforeSendingNeverConnects() async throws {
        let server = try ScriptedHTTPServer(.answer(Self.answer))
        let request = try request(server.port)
        let sending = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await SocketRequest.send(request, threadName: "LDt.early")
        }
        await #expect(throws: CancellationError.self) { try await sending.value }
        #expect(ProcessResources.socketsConnected(toPort: server.port) == 0)
    }

    @Test func silenceLongerThanTheTimeoutIsATimeout() async throws {
        let server = try ScriptedHTTPServer(.silence)
        await #expect(throws: URLError(.timedOut)) {
            _ = try await SocketRequest.send(try request(server.port, timeout: 0.2), threadName: "LDt.silent")
        }
        #expect(ProcessResources.socketsConnected(toPort: server.port) == 0)
    }

    @Test func aRefusedConnectionCannotConnect() async throws {
        let port = try LoopbackListener().port  // closed again at once: nothing listens there
        await #expect(throws: URLError(.cannotConnectToHost)) {
            _ = try await SocketRequest.send(try request(port), threadName: "LDt.refused")
        }
    }

    @Test func manySequentialRequestsLeaveNoSocketOrThreadBehind() async throws {
        let server = try ScriptedHTTPServer(.answer(Self.answer))
        for _ in 0..<500 {
            let response = try await SocketRequest.send(try request(server.port), threadName: "LDt.sequence")
            #expect(response.body == Data("hello".utf8))
        }
        #expect(ProcessResources.socketsConnected(toPort: server.port) == 0)
        #expect(try await ProcessResources.waitUntil { ProcessResources.threads(named: "LDt.sequence") == 0 })
        // The thread closes the stop pipe before it ends; the process's own descriptor count
        // cannot tell (the other suites open and close files and pipes meanwhile).
    }

    @Test func concurrentRequestsLeaveNoSocketOrThreadBehind() async throws {
        let server = try ScriptedHTTPServer(.answer(Self.answer))
        let request = try request(server.port)
        let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<50 {
                group.addTask { try await SocketRequest.send(request, threadName: "LDt.together").body }
            }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(bodies == Array(repeating: Data("hello".utf8), count: 50))
        #expect(ProcessResources.socketsConnected(toPort: server.port) == 0)
        #expect(try await ProcessResources.waitUntil { ProcessResources.threads(named: "LDt.together") == 0 })
    }
}
#endif
