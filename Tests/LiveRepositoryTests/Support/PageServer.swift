import LiveRepository

/// A scripted server for the engine's tests: each request waits until the test answers it, so
/// the order of cache and server results is decided by the test.
actor PageServer<Record: CacheRecord> {
    private var waiting: [(cursor: String?, continuation: CheckedContinuation<RemotePage<Record>, any Error>)] = []
    private var requestWaiters: [CheckedContinuation<Void, Never>] = []
    private(set) var requests: [String?] = []

    func fetch(cursor: String?, limit: Int) async throws -> RemotePage<Record> {
        requests.append(cursor)
        return try await withCheckedThrowingContinuation { continuation in
            waiting.append((cursor, continuation))
            let waiters = requestWaiters
            requestWaiters = []
            waiters.forEach { $0.resume() }
        }
    }

    /// Waits until a request is pending.
    func awaitRequest() async {
        while waiting.isEmpty { await withCheckedContinuation { requestWaiters.append($0) } }
    }

    /// Answers the oldest pending request.
    func answer(_ result: Result<RemotePage<Record>, any Error>) async {
        await awaitRequest()
        let (_, continuation) = waiting.removeFirst()
        continuation.resume(with: result)
    }
}

struct TestServerError: Error, Equatable {}
