import Foundation
import LiveData

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP layer on `URLSession`: `data(for:)` for requests, and a data delegate for the event
/// stream, which delivers each chunk as it arrives on Linux and Apple platforms alike
/// (`URLSession.bytes(for:)` does not exist on Linux, and `URLSessionWebSocketTask` fails there).
/// On Linux `http://` goes over plain sockets instead: requests (``SocketRequest``), since
/// FoundationNetworking loses bodies, crashes on a cut answer and races its sockets' dispatch
/// sources; and the event stream (``SocketStreamConnection``), since FoundationNetworking spins
/// while a stream is quiet.
final class URLSessionTransport: HTTPTransport {
    private let requests: URLSession
    private let streams: URLSession
    private let delegate: StreamDelegate

    /// - Parameter requestTimeout: how long a request may wait without progress, in seconds.
    ///   Each request carries its own timeout too, but FoundationNetworking on Linux applies only
    ///   the session's `timeoutIntervalForRequest` (60 s by default): a request stuck without an
    ///   answer waited a minute (found with the server tests' fault proxy).
    init(requestTimeout: Double = 60) {
        func configuration(timeout: Double?) -> URLSessionConfiguration {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.httpCookieStorage = nil
            if let timeout { configuration.timeoutIntervalForRequest = timeout }
            return configuration
        }
        requests = URLSession(configuration: configuration(timeout: requestTimeout))
        delegate = StreamDelegate()
        // The event stream keeps the default: it is quiet for a heartbeat interval at a time.
        streams = URLSession(configuration: configuration(timeout: nil), delegate: delegate, delegateQueue: nil)
    }

    deinit {
        requests.invalidateAndCancel()
        streams.invalidateAndCancel()
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        #if canImport(Glibc)
            // FoundationNetworking's failures on Linux are in SocketRequest's documentation.
            if request.url.scheme == "http" { return try await SocketRequest.send(request) }
        #endif
        let (data, response) = try await requests.data(for: Self.urlRequest(request))
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return HTTPResponse(status: http.statusCode, headers: Self.headers(of: http), body: data)
    }

    func openStream(_ request: HTTPRequest) -> AsyncThrowingStream<StreamPart, any Error> {
        #if canImport(Glibc)
            // A quiet URLSession stream keeps a core busy on Linux (see SocketStreamConnection).
            if request.url.scheme == "http" { return SocketStreamConnection.open(request) }
        #endif
        let task = streams.dataTask(with: Self.urlRequest(request))
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StreamPart.self)
        delegate.register(continuation, for: task.taskIdentifier)
        continuation.onTermination = { _ in task.cancel() }
        task.resume()
        return stream
    }

    private static func urlRequest(_ request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }

    fileprivate static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return headers
    }
}

/// Routes the stream session's delegate calls to the stream of each task. Continuations are
/// used after the lock is let go of.
private final class StreamDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let continuations = LockedState<[Int: AsyncThrowingStream<StreamPart, any Error>.Continuation]>([:])

    func register(_ continuation: AsyncThrowingStream<StreamPart, any Error>.Continuation, for task: Int) {
        continuations.withLock { $0[task] = continuation }
    }

    private func continuation(of task: URLSessionTask, removing: Bool = false) -> AsyncThrowingStream<StreamPart, any Error>.Continuation? {
        continuations.withLock { removing ? $0.removeValue(forKey: task.taskIdentifier) : $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse {
            continuation(of: dataTask)?.yield(.head(HTTPResponse(status: http.statusCode, headers: URLSessionTransport.headers(of: http))))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation(of: dataTask)?.yield(.bytes(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let continuation = continuation(of: task, removing: true) else { return }
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    }
}
