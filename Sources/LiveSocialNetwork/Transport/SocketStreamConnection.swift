#if canImport(Glibc)
import Foundation
import Glibc
import LiveData

/// One HTTP/1.1 request over a plain TCP socket, driven by a thread of its own blocked in
/// `poll(2)`: the transport of ``SocketRequest`` (one request, its whole answer) and of the
/// event stream (``open(_:)``) on Linux for `http://` servers.
///
/// FoundationNetworking on Linux drives libcurl through dispatch sources that, while a request
/// waits for its answer, keep the socket registered as writable: a stream that is open but quiet
/// costs about 60% of a core (measured here with a bare `URLSession` data task on an idle event
/// stream: 6,000 system calls a second). A thread blocked in `poll(2)` costs nothing until bytes
/// arrive. Apple platforms, and `https://` on Linux, keep `URLSession`.
///
/// No dispatch source either: tearing one down races libdispatch's event loop (a crash in
/// `_dispatch_event_loop_drain` seen once in CI, the family of swift-corelibs-foundation issue
/// 4791), and a source that read once per event could leave an RST that came with the last bytes
/// unseen. Here each wake-up reads until the socket has nothing more to give (`EAGAIN`), its end
/// (a FIN) or its failure (an RST), so a connection reset after part of an answer always ends
/// the request with `URLError(.networkConnectionLost)`.
///
/// One thread per connection, not one shared poll thread: a client has its event stream and a
/// few requests in flight at a time, and a thread of its own keeps each socket used, then
/// closed, by a single thread, with no set of descriptors shared between threads (a descriptor
/// closed while another thread still polls it may be reused by an unrelated file).
///
/// ``cancel()`` closes the write end of the connection's stop pipe: the thread's `poll(2)` wakes
/// at once (the read end reads as closed), and the thread closes the socket and the pipe, once,
/// after it left its last wait. The descriptors are never closed by another thread.
final class SocketStreamConnection: Sendable {
    private let request: HTTPRequest
    private let idleTimeout: Double?
    private let threadName: String
    /// The read end of the stop pipe, used and closed by the connection's thread only; -1 when
    /// the pipe could not be made.
    private let stopRead: Int32
    /// The write end of the stop pipe (-1 once closed), and whether the connection was cancelled.
    private let stop: LockedState<(writeEnd: Int32, cancelled: Bool)>

    /// The name of the connections' threads, as `/proc/self/task/*/comm` shows it (15 bytes at most).
    static let threadName = "LiveData.socket"

    /// Opens `request` as a stream: the answer's head, then its body as it arrives. The stream
    /// has no timeout once connected (an event stream is quiet between events); ending its
    /// iteration, or cancelling the iterating task, closes the connection.
    static func open(_ request: HTTPRequest) -> AsyncThrowingStream<StreamPart, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StreamPart.self)
        let connection = SocketStreamConnection(request, idleTimeout: nil)
        continuation.onTermination = { _ in connection.cancel() }
        connection.start { part in
            continuation.yield(part)
        } end: { error in
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        }
        return stream
    }

    /// A connection for `request`, not started yet.
    ///
    /// - Parameter idleTimeout: how long each wait without progress may take, in seconds
    ///   (connecting, sending, then each silence before the next bytes), ending the request with
    ///   `URLError(.timedOut)`; nil for none once connected (connecting is then bounded by the
    ///   request's own timeout, and fails as `.cannotConnectToHost`).
    /// - Parameter threadName: the name of its thread (15 bytes at most); tests name theirs apart
    ///   to count them.
    init(_ request: HTTPRequest, idleTimeout: Double?, threadName: String = threadName) {
        self.request = request
        self.idleTimeout = idleTimeout
        self.threadName = threadName
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        } else {
            ends = [-1, -1]
        }
        stopRead = ends[0]
        stop = LockedState((writeEnd: ends[1], cancelled: false))
    }

    /// Starts the connection's thread. `receive` is called there with each part of the answer,
    /// then `end` once, with nil when the whole answer was read or the error that ended it
    /// (`CancellationError` after ``cancel()``), after the socket and the pipe were closed.
    func start(receive: @escaping @Sendable (StreamPart) -> Void, end: @escaping @Sendable ((any Error)?) -> Void) {
        guard stopRead >= 0 else {
            // No pipe (the process is out of descriptors): no socket could be opened either.
            closeWriteEnd()
            return end(URLError(.cannotConnectToHost))
        }
        let thread = Thread { [self] in
            Self.nameThread(threadName)
            var socket: Int32 = -1
            var failure = run(opened: { socket = $0 }, receive: receive)
            if socket >= 0 { _ = Glibc.close(socket) }
            _ = Glibc.close(stopRead)
            if closeWriteEnd() {
                failure = CancellationError()
            } else if failure is PolledSocket.Stopped {
                // Not cancelled, yet a wait failed (never expected): the connection is lost.
                failure = URLError(.networkConnectionLost)
            }
            end(failure)
        }
        thread.name = threadName
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// Names the calling thread for the system (`/proc/self/task/*/comm`, debuggers): Foundation's
    /// `Thread.name` does not reach it on Linux, and `pthread_setname_np` is not imported.
    private static func nameThread(_ name: String) {
        let fd = Glibc.open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        _ = Glibc.close(fd)
    }

    /// Ends the connection: wakes its thread, which closes the socket. Safe to call at any
    /// time, from any thread, any number of times.
    func cancel() {
        let writeEnd = stop.withLock { state in
            defer { state = (writeEnd: -1, cancelled: true) }
            return state.writeEnd
        }
        if writeEnd >= 0 { _ = Glibc.close(writeEnd) }
    }

    /// Closes the stop pipe's write end unless ``cancel()`` did; true when the connection was
    /// cancelled.
    @discardableResult
    private func closeWriteEnd() -> Bool {
        let (writeEnd, cancelled) = stop.withLock { state in
            defer { state.writeEnd = -1 }
            return state
        }
        if writeEnd >= 0 { _ = Glibc.close(writeEnd) }
        return cancelled
    }

    private var isCancelled: Bool { stop.withLock { $0.cancelled } }

    /// On the connection's thread: connects, sends the request and reads the answer; `opened`
    /// is told the socket as soon as it exists. Returns what ended the exchange (nil: the whole
    /// answer was read).
    private func run(opened: (Int32) -> Void, receive: (StreamPart) -> Void) -> (any Error)? {
        do {
            guard !isCancelled else { throw PolledSocket.Stopped() }
            // A request's connect that takes its whole timeout timed out, as its other waits do.
            let socket = try PolledSocket.connect(
                to: request.url, timeout: idleTimeout ?? request.timeout,
                timedOutCode: idleTimeout == nil ? .cannotConnectToHost : .timedOut, stop: stopRead)
            opened(socket.fd)
            try socket.sendAll(Self.requestBytes(request), timeout: idleTimeout ?? 10)
            try read(from: socket, receive: receive)
            return nil
        } catch {
            return error
        }
    }

    /// Reads the answer until it is whole, the connection ends, or the wait for more bytes takes
    /// the whole idle timeout. Each wake-up reads until the socket has nothing more to give.
    private func read(from socket: PolledSocket, receive: (StreamPart) -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var decoder = HTTPStreamDecoder()
        while true {
            switch socket.receive(into: &buffer) {
            case .bytes(let count):
                let parts: [StreamPart]
                do {
                    parts = try decoder.feed(buffer[..<count])
                } catch {
                    throw URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: error.reason])
                }
                for part in parts { receive(part) }
                if decoder.isFinished { return }
                // A stream that never pauses is still stopped by a cancel.
                if isCancelled { throw PolledSocket.Stopped() }
            case .closed:
                guard decoder.endsAtClose() else { throw URLError(.networkConnectionLost) }
                return
            case .failed:
                throw URLError(.networkConnectionLost)
            case .nothingYet:
                switch socket.wait(for: Int16(POLLIN), timeout: idleTimeout) {
                case .ready: continue
                case .stopped: throw PolledSocket.Stopped()
                case .timedOut: throw URLError(.timedOut)
                }
            }
        }
    }

    /// The request's bytes: request line, header fields and body.
    static func requestBytes(_ request: HTTPRequest) -> [UInt8] {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?\(query)" }
        let host = request.url.host ?? "localhost"
        var lines = ["\(request.method) \(target) HTTP/1.1", "Host: \(host)\(request.url.port.map { ":\($0)" } ?? "")"]
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) where name.lowercased() != "host" {
            lines.append("\(name): \(value)")
        }
        if let body = request.body { lines.append("Content-Length: \(body.count)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + (request.body.map(Array.init) ?? [])
    }
}
#endif
