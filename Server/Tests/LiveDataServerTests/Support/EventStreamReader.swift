import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Reads `GET /v1/events` through a URLSession data delegate (the way that streams on Linux),
/// and hands out the stream's lines as they arrive.
final class EventStreamReader: NSObject, URLSessionDataDelegate, Sendable {
    private let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    /// Bytes received and not yet split into lines, and the answer's status.
    private let state = Mutex<(pending: Data, status: Int?)>((Data(), nil))
    private let task = Mutex<URLSessionDataTask?>(nil)
    private let session = Mutex<URLSession?>(nil)

    /// Opens the stream with `token`.
    init(url: URL, token: String) {
        (lines, continuation) = AsyncStream<String>.makeStream()
        super.init()
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
        var request = URLRequest(url: url.appendingPathComponent("v1/events"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 30
        let task = session.dataTask(with: request)
        self.task.withLock { $0 = task }
        self.session.withLock { $0 = session }
        task.resume()
    }

    /// The answer's status, once its head arrived.
    var status: Int? { state.withLock { $0.status } }

    /// Lines until one satisfies `predicate` (that line), or nil when the stream ends first.
    func line(where predicate: (String) -> Bool) async -> String? {
        for await line in lines where predicate(line) { return line }
        return nil
    }

    /// Stops reading.
    func close() {
        task.withLock { $0?.cancel() }
        session.withLock { $0?.invalidateAndCancel() }
        continuation.finish()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.status = (response as? HTTPURLResponse)?.statusCode }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let complete: [String] = state.withLock { state in
            state.pending.append(data)
            var found: [String] = []
            while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                found.append(String(decoding: state.pending[state.pending.startIndex..<newline], as: UTF8.self))
                state.pending = Data(state.pending[(newline + 1)...])
            }
            return found
        }
        for line in complete { continuation.yield(line) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.finish()
    }
}
