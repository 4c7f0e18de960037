import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plain blocking TCP sockets to 127.0.0.1.
enum BlockingSocket {
    /// A connected socket to 127.0.0.1:`port`, with Nagle's delay off.
    static func connect(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchError("socket() failed: errno \(errno) (too many open files?)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            close(socket)
            throw BenchError("connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
        var one: Int32 = 1
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return socket
    }

    /// Writes all of `bytes`.
    static func writeAll(_ socket: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(socket, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw BenchError("write failed: errno \(errno)") }
            offset += written
        }
    }
}
