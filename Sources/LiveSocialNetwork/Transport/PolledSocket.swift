#if canImport(Glibc)
    import Foundation
    import Glibc

    /// A non-blocking TCP socket and the read end of a stop pipe, used by one thread only: every
    /// wait is a `poll(2)` on both, so a stop (the pipe's write end closed, see
    /// ``SocketStreamConnection/cancel()``) ends any wait at once.
    ///
    /// It never closes either descriptor: their owner, ``SocketStreamConnection``'s thread,
    /// closes them once it is out of every wait.
    struct PolledSocket {
        /// The socket.
        let fd: Int32
        /// The read end of the stop pipe: it reads as closed once the connection is stopped.
        let stop: Int32

        /// What ended a wait.
        enum Wait {
            /// The socket is ready (or has an error or a hang-up to tell).
            case ready
            /// The stop pipe was closed.
            case stopped
            /// The wait took the whole timeout.
            case timedOut
        }

        /// The connection was stopped while a socket call waited.
        struct Stopped: Error {}

        /// Waits until the socket reports one of `events`, an error or a hang-up; `timeout` in
        /// seconds, nil for no limit.
        func wait(for events: Int16, timeout: Double?) -> Wait {
            Self.wait(fd, for: events, stop: stop, timeout: timeout)
        }

        private static func wait(_ fd: Int32, for events: Int16, stop: Int32, timeout: Double?) -> Wait {
            let deadline = timeout.map { ContinuousClock.now + .seconds($0) }
            var watched = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            while true {
                var milliseconds: Int32 = -1
                if let deadline {
                    let left = ContinuousClock.now.duration(to: deadline)
                    if left <= .zero { return .timedOut }
                    let (seconds, attoseconds) = left.components
                    // Rounded up: a wait a hair short of the deadline would only poll again.
                    milliseconds = Int32(clamping: seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
                }
                let ready = poll(&watched, 2, milliseconds)
                if ready < 0 {
                    if errno == EINTR { continue }
                    // Never expected with two valid descriptors: stop rather than spin.
                    return .stopped
                }
                if watched[1].revents != 0 { return .stopped }
                if watched[0].revents != 0 { return .ready }
            }
        }

        /// A socket connected to the URL's host and port, each address tried in turn, each
        /// connect waited on for up to `timeout` seconds.
        ///
        /// - Throws: `URLError` (`.badURL`, `.cannotFindHost`, `.cannotConnectToHost`, or
        ///   `timedOutCode` when the last address took the whole timeout), or ``Stopped``.
        static func connect(to url: URL, timeout: Double, timedOutCode: URLError.Code, stop: Int32) throws -> PolledSocket {
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
            var failure = URLError.Code.cannotConnectToHost
            var entry: UnsafeMutablePointer<addrinfo>? = list
            while let address = entry?.pointee {
                entry = address.ai_next
                let fd = Glibc.socket(address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.ai_protocol)
                if fd < 0 { continue }
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) == 0 { return PolledSocket(fd: fd, stop: stop) }
                if errno == EINPROGRESS {
                    switch wait(fd, for: Int16(POLLOUT), stop: stop, timeout: timeout) {
                    case .ready:
                        if isConnected(fd) { return PolledSocket(fd: fd, stop: stop) }
                        failure = .cannotConnectToHost
                    case .stopped:
                        _ = Glibc.close(fd)
                        throw Stopped()
                    case .timedOut:
                        failure = timedOutCode
                    }
                }
                _ = Glibc.close(fd)
            }
            throw URLError(failure)
        }

        /// Whether a non-blocking connect that reported writable connected.
        private static func isConnected(_ fd: Int32) -> Bool {
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 && failure == 0
        }

        /// Writes every byte, waiting up to `timeout` seconds each time the socket's buffer is
        /// full; never raises `SIGPIPE`.
        ///
        /// - Throws: `URLError` (`.timedOut`, `.networkConnectionLost`), or ``Stopped``.
        func sendAll(_ bytes: [UInt8], timeout: Double) throws {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent > 0 {
                    offset += sent
                } else if sent < 0 && errno == EINTR {
                    continue
                } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    switch wait(for: Int16(POLLOUT), timeout: timeout) {
                    case .ready: continue
                    case .stopped: throw Stopped()
                    case .timedOut: throw URLError(.timedOut)
                    }
                } else {
                    throw URLError(.networkConnectionLost)
                }
            }
        }

        /// What one `recv(2)` gave.
        enum Received {
            /// `count` bytes, at the start of the buffer.
            case bytes(Int)
            /// Nothing waits in the socket now.
            case nothingYet
            /// The peer closed its side (a FIN).
            case closed
            /// The connection failed (an RST, most often).
            case failed
        }

        /// One `recv(2)` into `buffer`, retried when a signal interrupts it.
        func receive(into buffer: inout [UInt8]) -> Received {
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
                if count > 0 { return .bytes(count) }
                if count == 0 { return .closed }
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .nothingYet : .failed
            }
        }
    }
#endif
