#if canImport(Glibc)
    import Foundation
    import LiveData

    /// One request and its whole answer over a plain socket: how ``URLSessionTransport`` sends an
    /// `http://` request on Linux.
    ///
    /// FoundationNetworking (libcurl under `URLSession`) fails a network client there in three
    /// ways the fault tests found or met: a connection closed before the answer made libcurl send
    /// the request again on a new connection without its body, so the request hung until its
    /// timeout; a connection closed part-way through the answer's header crashed the process
    /// ("Transfer completed, but there's no response"); and tearing down a connection races the
    /// dispatch source that watches its socket, an intermittent crash in libdispatch's event
    /// loop (swift-corelibs-foundation issue 4791 and its family). A request here has a connection
    /// of its own, the bytes ``SocketStreamConnection`` reads, and ``HTTPRequest/timeout`` for each
    /// wait without progress; a connection lost before the whole answer is
    /// `URLError(.networkConnectionLost)`, which the requester sends again with the same
    /// idempotency key. `https://` still goes through `URLSession`, which has the TLS.
    enum SocketRequest {
        /// Sends `request` and reads the whole answer. ``HTTPRequest/timeout`` bounds each wait
        /// without progress (connecting, then each silence before the next bytes), as
        /// `URLSession`'s request timeout does, not the whole exchange.
        ///
        /// - Throws: `URLError` (`.cannotConnectToHost`, `.networkConnectionLost`,
        ///   `.badServerResponse`, `.timedOut`), or `CancellationError` when the task is cancelled.
        static func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let progress = LockedState(ContinuousClock.now)
            return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
                group.addTask { try await exchange(request, progress: progress) }
                group.addTask {
                    let limit = Duration.seconds(request.timeout)
                    while true {
                        let deadline = progress.withLock { $0 } + limit
                        if ContinuousClock.now >= deadline { return nil }
                        try await Task.sleep(until: deadline, clock: .continuous)
                    }
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw CancellationError() }
                guard let response = first else { throw URLError(.timedOut) }
                return response
            }
        }

        private static func exchange(_ request: HTTPRequest, progress: LockedState<ContinuousClock.Instant>) async throws -> HTTPResponse {
            var head: HTTPResponse?
            var body = Data()
            for try await part in SocketStreamConnection.open(request) {
                progress.withLock { $0 = .now }
                switch part {
                case .head(let response): head = response
                case .bytes(let bytes): body.append(bytes)
                }
            }
            try Task.checkCancellation()
            guard var response = head else { throw URLError(.badServerResponse) }
            response.body = body
            return response
        }
    }
#endif
