#if canImport(Glibc)
import Foundation
import Glibc

/// A long-lived HTTP/1.1 request over a plain TCP socket, read through a dispatch source: the
/// event stream's transport on Linux for `http://` servers.
///
/// FoundationNetworking on Linux drives libcurl through dispatch sources that, while a request
/// waits for its answer, keep the socket registered as writable: a stream that is open but quiet
/// costs about 60% of a core (measured here with a bare `URLSession` data task on an idle event
/// stream: 6,000 system calls a second). A socket whose only source is a read source costs
/// nothing until bytes arrive. Apple platforms, and `https://` on Linux, keep `URLSession`.
///
/// `@unchecked Sendable`: every mutable field is read and written on `queue` only.
final class SocketStreamConnection: @unchecked Sendable {
    private let request: HTTPRequest
    private let continuation: AsyncThrowingStream<StreamPart, any Error>.Continuation
    private let queue = DispatchQueue(label: "LiveSocialNetwork.SocketStreamConnection")
    private var socket: Int32 = -1
    private var source: (any DispatchSourceRead)?
    private var decoder = HTTPStreamDecoder()
    private var isClosed = false

    /// Opens `request` as a stream: the answer's head, then its body as it arrives.
    static func open(_ request: HTTPRequest) -> AsyncThrowingStream<StreamPart, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StreamPart.self)
        let connection = SocketStreamConnection(request: request, continuation: continuation)
        continuation.onTermination = { _ in connection.cancel() }
        connection.queue.async { connection.start() }
        return stream
    }

    private init(request: HTTPRequest, continuation: AsyncThrowingStream<StreamPart, any Error>.Continuation) {
        self.request = request
        self.continuation = continuation
    }

    /// Ends the request: closes the socket (a consumer that stopped iterating).
    private func cancel() {
        queue.async { self.close() }
    }

    private func start() {
        guard !isClosed else { return }
        do {
            socket = try Self.connect(to: request.url, timeout: request.timeout)
            try Self.sendAll(Self.requestBytes(request), on: socket)
        } catch {
            return finish(throwing: error)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: socket, queue: queue)
        source.setEventHandler { [weak self] in self?.readAvailable() }
        source.setCancelHandler { [socket] in _ = Glibc.close(socket) }
        self.source = source
        source.resume()
    }

    private func readAvailable() {
        var bytes = [UInt8](repeating: 0, count: 16 * 1024)
        let count = bytes.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return }
            return finish(throwing: URLError(.networkConnectionLost))
        }
        if count == 0 {
            return decoder.endsAtClose() ? finish(throwing: nil) : finish(throwing: URLError(.networkConnectionLost))
        }
        do {
            for part in try decoder.feed(bytes[..<count]) { continuation.yield(part) }
        } catch {
            return finish(throwing: URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: error.reason]))
        }
        if decoder.isFinished { finish(throwing: nil) }
    }

    private func finish(throwing error: (any Error)?) {
        close()
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    }

    private func close() {
        guard !isClosed else { return }
        isClosed = true
        if let source {
            source.cancel()
        } else if socket >= 0 {
            _ = Glibc.close(socket)
        }
        source = nil
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

    /// A connected, non-blocking socket to the URL's host and port, within `timeout` seconds.
    private static func connect(to url: URL, timeout: Double) throws -> Int32 {
        guard let host = url.host else { throw URLError(.badURL) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let port = String(url.port ?? 80)
        guard getaddrinfo(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port, &hints, &list) == 0, let list else {
            throw URLError(.cannotFindHost)
        }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let address = entry?.pointee {
            entry = address.ai_next
            let fd = Glibc.socket(address.ai_family, address.ai_socktype, address.ai_protocol)
            if fd < 0 { continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) == 0 || (errno == EINPROGRESS && waitUntilConnected(fd, timeout)) {
                return fd
            }
            _ = Glibc.close(fd)
        }
        throw URLError(.cannotConnectToHost)
    }

    /// Waits for a non-blocking connect to finish; true when it connected.
    private static func waitUntilConnected(_ fd: Int32, _ timeout: Double) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, Int32(max(1, timeout * 1000))) == 1 else { return false }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 && failure == 0
    }

    /// Writes every byte, waiting while the socket's buffer is full; never raises `SIGPIPE`.
    private static func sendAll(_ bytes: [UInt8], on fd: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EINTR) {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                guard poll(&poller, 1, 10_000) == 1 else { throw URLError(.timedOut) }
            } else {
                throw URLError(.networkConnectionLost)
            }
        }
    }
}
#endif
