#if canImport(Glibc)
import Foundation
import Glibc

/// An HTTP server of the test's own on a loopback port the system picked, that gives every
/// connection the same ``Reply`` once it read the request's head: one thread accepts, one
/// thread serves each connection. ``stop()`` stops accepting; served connections end on their own.
final class ScriptedHTTPServer: Sendable {
    /// What each connection gets.
    enum Reply: Sendable {
        /// These bytes, then a FIN.
        case answer(String)
        /// These bytes, then an RST at once (`SO_LINGER` 0, then close): both may reach the
        /// client before it reads either.
        case partThenReset(String)
        /// Nothing: the connection stays open until the client closes it.
        case silence
    }

    let port: Int
    /// The heads of the requests read, in order.
    let requests: AsyncStream<String>
    private let listener: Int32

    init(_ reply: Reply) throws {
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw LoopbackListener.Failure(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(listener, pointer, length) == 0 && listen(listener, 128) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            _ = Glibc.close(listener)
            throw LoopbackListener.Failure(call: "bind", code: errno)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let (requests, sink) = AsyncStream.makeStream(of: String.self)
        self.requests = requests
        // The accepting thread owns the listener: it closes it once `stop()` made accept fail.
        Thread.detachNewThread {
            while true {
                let peer = Glibc.accept(listener, nil, nil)
                if peer < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    break
                }
                Thread.detachNewThread { Self.serve(peer, reply, sink) }
            }
            _ = Glibc.close(listener)
            sink.finish()
        }
    }

    deinit { stop() }

    /// Stops accepting connections.
    func stop() { _ = Glibc.shutdown(listener, Int32(SHUT_RDWR)) }

    private static func serve(_ peer: Int32, _ reply: Reply, _ sink: AsyncStream<String>.Continuation) {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard Glibc.recv(peer, &byte, 1, 0) == 1 else {
                _ = Glibc.close(peer)
                return
            }
            head.append(byte)
        }
        sink.yield(String(decoding: head, as: UTF8.self))
        switch reply {
        case .answer(let text):
            write(text, to: peer)
            _ = Glibc.close(peer)
        case .partThenReset(let text):
            write(text, to: peer)
            resetDescriptor(peer)
        case .silence:
            while Glibc.recv(peer, &byte, 1, 0) > 0 {}
            _ = Glibc.close(peer)
        }
    }

    private static func write(_ text: String, to peer: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(peer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
#endif
