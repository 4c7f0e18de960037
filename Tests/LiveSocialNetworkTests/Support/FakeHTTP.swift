import Foundation
import LiveSocialWire
@testable import LiveSocialNetwork

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fake HTTP layer: answers requests with a handler the test sets, records every request,
/// and hands each opened stream to the test to feed.
///
/// `@unchecked Sendable`: `lock` guards `state`; handlers and continuations run after unlocking.
final class FakeHTTP: HTTPTransport, @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// One stream the code under test opened.
    struct OpenedStream: Sendable {
        let request: HTTPRequest
        let continuation: AsyncThrowingStream<StreamPart, any Error>.Continuation

        /// Sends the 200 head and the server's `connected` event.
        func connect() {
            continuation.yield(.head(HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"])))
            send(": hello\n\nevent: connected\ndata: {\"kind\":\"connected\"}\n\n")
        }

        /// Sends raw stream text.
        func send(_ text: String) {
            continuation.yield(.bytes(Data(text.utf8)))
        }
    }

    private struct State {
        var handler: Handler
        var requests: [HTTPRequest] = []
        var streams: [OpenedStream] = []
        var requestWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var streamWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let lock = NSLock()
    private var state: State

    init(handler: @escaping Handler = { _ in HTTPResponse(status: 404) }) {
        state = State(handler: handler)
    }

    /// Replaces the handler.
    func answer(with handler: @escaping Handler) {
        lock.withLock { state.handler = handler }
    }

    /// The requests sent so far, in order.
    var requests: [HTTPRequest] { lock.withLock { state.requests } }

    /// The requests sent to `path`, in order.
    func requests(to path: String) -> [HTTPRequest] { requests.filter { $0.url.path == path } }

    /// The streams opened so far.
    var streams: [OpenedStream] { lock.withLock { state.streams } }

    /// Waits until `count` requests were sent, and returns the last of them.
    func waitForRequests(_ count: Int) async -> HTTPRequest {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if state.requests.count >= count { return true }
                state.requestWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        return requests[count - 1]
    }

    /// Waits until `count` streams were opened, and returns the last of them.
    func waitForStream(_ count: Int) async -> OpenedStream {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if state.streams.count >= count { return true }
                state.streamWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        return streams[count - 1]
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (handler, ready) = lock.withLock { () -> (Handler, [CheckedContinuation<Void, Never>]) in
            state.requests.append(request)
            let count = state.requests.count
            let ready = state.requestWaiters.filter { $0.count <= count }.map(\.continuation)
            state.requestWaiters.removeAll { $0.count <= count }
            return (state.handler, ready)
        }
        ready.forEach { $0.resume() }
        return try await handler(request)
    }

    func openStream(_ request: HTTPRequest) -> AsyncThrowingStream<StreamPart, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StreamPart.self)
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            state.streams.append(OpenedStream(request: request, continuation: continuation))
            let count = state.streams.count
            let ready = state.streamWaiters.filter { $0.count <= count }.map(\.continuation)
            state.streamWaiters.removeAll { $0.count <= count }
            return ready
        }
        ready.forEach { $0.resume() }
        return stream
    }
}

extension HTTPResponse {
    /// A JSON answer.
    static func json(_ body: some Encodable, status: Int = 200) -> HTTPResponse {
        // The bodies the tests encode always encode.
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: (try? SocialWire.encode(body)) ?? Data())
    }

    /// An error answer with the contract's error body.
    static func error(_ code: WireErrorCode, _ message: String, status: Int? = nil) -> HTTPResponse {
        json(WireErrorBody(code: code, message: message), status: status ?? code.status)
    }
}

extension HTTPRequest {
    /// The bearer token sent, if any.
    var bearer: String? { headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) } }
}
