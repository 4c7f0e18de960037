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
    /// loop (swift-corelibs-foundation issue 4791 and its family). A request here has a
    /// ``SocketStreamConnection`` of its own, whose thread polls the socket (no dispatch source),
    /// and ``HTTPRequest/timeout`` for each wait without progress; a connection lost before the
    /// whole answer, even by an RST that came with its last bytes, is
    /// `URLError(.networkConnectionLost)`, which the requester sends again with the same
    /// idempotency key. `https://` still goes through `URLSession`, which has the TLS.
    enum SocketRequest {
        /// Sends `request` and reads the whole answer. ``HTTPRequest/timeout`` bounds each wait
        /// without progress (connecting, sending, then each silence before the next bytes), as
        /// `URLSession`'s request timeout does, not the whole exchange.
        ///
        /// Returns, or throws, once the connection's socket is closed and its thread is done
        /// with it, cancelled or not.
        ///
        /// - Parameter threadName: the name of the connection's thread (tests count theirs).
        /// - Throws: `URLError` (`.cannotFindHost`, `.cannotConnectToHost`,
        ///   `.networkConnectionLost`, `.badServerResponse`, `.timedOut`), or `CancellationError`
        ///   when the task is cancelled.
        static func send(_ request: HTTPRequest, threadName: String = SocketStreamConnection.threadName) async throws -> HTTPResponse {
            let connection = SocketStreamConnection(request, idleTimeout: request.timeout, threadName: threadName)
            let answer = LockedState<(head: HTTPResponse?, body: Data)>((head: nil, body: Data()))
            let failure: (any Error)? = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    connection.start { part in
                        answer.withLock { answer in
                            switch part {
                            case .head(let response): answer.head = response
                            case .bytes(let bytes): answer.body.append(bytes)
                            }
                        }
                    } end: { error in
                        continuation.resume(returning: error)
                    }
                }
            } onCancel: {
                connection.cancel()
            }
            try Task.checkCancellation()
            if let failure { throw failure }
            let (head, body) = answer.withLock { ($0.head, $0.body) }
            guard var response = head else { throw URLError(.badServerResponse) }
            response.body = body
            return response
        }
    }
#endif
