#if canImport(Glibc)
import Foundation
import Glibc
import Synchronization

/// A listening TCP socket on 127.0.0.1 with a port the system picked, closed when released;
/// it accepts connections one at a time for a test to play the server's part by hand.
final class LoopbackListener: Sendable {
    /// A failed system call, by name and `errno`.
    struct Failure: Error { var call: String; var code: Int32 }

    let port: Int
    private let fd: Int32

    init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(fd, pointer, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            _ = Glibc.close(fd)
            throw Failure(call: "bind", code: errno)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { _ = Glibc.close(fd) }

    /// The next connection (accepted on a thread of its own, so the test's task is not blocked).
    ///
    /// The thread hands back the descriptor, a value, and the peer is made here: the thread
    /// sanitizer does not see the continuation order the thread's writes before this task's reads.
    func accept() async throws -> Peer {
        let fd = self.fd
        let peer: Int32 = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                let peer = Glibc.accept(fd, nil, nil)
                if peer < 0 { continuation.resume(throwing: Failure(call: "accept", code: errno)) } else { continuation.resume(returning: peer) }
            }
        }
        return Peer(fd: peer)
    }

    /// One accepted connection.
    final class Peer: Sendable {
        /// The descriptor, -1 once ``reset()`` closed it.
        private let descriptor: Mutex<Int32>

        init(fd: Int32) { descriptor = Mutex(fd) }

        deinit {
            let fd = descriptor.withLock { $0 }
            if fd >= 0 { _ = Glibc.close(fd) }
        }

        private var fd: Int32 { descriptor.withLock { $0 } }

        /// Reads until the end of a request's head (a blank line), on a thread of its own.
        func readHead() async throws -> String {
            let fd = self.fd
            return try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    var bytes: [UInt8] = []
                    var byte: UInt8 = 0
                    while !bytes.suffix(4).elementsEqual([13, 10, 13, 10]) {
                        guard Glibc.recv(fd, &byte, 1, 0) == 1 else {
                            return continuation.resume(throwing: Failure(call: "recv", code: errno))
                        }
                        bytes.append(byte)
                    }
                    continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
                }
            }
        }

        /// Writes `text` whole.
        func write(_ text: String) throws {
            let bytes = Array(text.utf8)
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == bytes.count else { throw Failure(call: "send", code: errno) }
        }

        /// Ends the connection both ways; the descriptor is closed when the peer is released.
        func close() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

        /// Resets the connection: the client's next read fails (an RST: `SO_LINGER` 0, then close).
        func reset() {
            let fd = descriptor.withLock { fd in
                defer { fd = -1 }
                return fd
            }
            guard fd >= 0 else { return }
            resetDescriptor(fd)
        }
    }
}

/// Closes `fd` with an RST instead of a FIN: `SO_LINGER` on, 0 seconds, then close.
func resetDescriptor(_ fd: Int32) {
    var option = linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    _ = Glibc.close(fd)
}
#endif
