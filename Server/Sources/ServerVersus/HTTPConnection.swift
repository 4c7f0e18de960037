import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One keep-alive HTTP/1.1 connection to the server, used from one thread at a time: it writes
/// a request and reads the whole answer (Content-Length or chunked body).
final class HTTPConnection {
    private let socket: Int32
    private let port: Int
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        self.port = port
        socket = try BlockingSocket.connect(port: port)
    }

    deinit { close(socket) }

    /// Sends a request and returns the answer's status and body.
    func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> (Int, [UInt8]) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try BlockingSocket.writeAll(socket, Array(head.utf8) + body)
        return try readAnswer()
    }

    private func readAnswer() throws -> (Int, [UInt8]) {
        let headEnd = try readUntil(Array("\r\n\r\n".utf8))
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2,
              let status = Int(statusLine.split(separator: " ")[1])
        else { throw BenchError("a malformed answer: \(head)") }
        var length = 0
        var chunked = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].lowercased()
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { length = Int(value) ?? 0 }
            if name == "transfer-encoding" && value.lowercased().contains("chunked") { chunked = true }
        }
        if !chunked {
            try fill(length)
            let body = Array(buffer[0..<length])
            buffer.removeFirst(length)
            return (status, body)
        }
        var body: [UInt8] = []
        while true {
            let lineEnd = try readUntil(Array("\r\n".utf8))
            let sizeText = String(decoding: buffer[0..<lineEnd], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw BenchError("a malformed chunk size: \(sizeText)")
            }
            buffer.removeFirst(lineEnd + 2)
            try fill(size + 2)
            body += buffer[0..<size]
            buffer.removeFirst(size + 2)
            if size == 0 { return (status, body) }
        }
    }

    /// Reads until `buffer` holds `pattern`; returns its index.
    private func readUntil(_ pattern: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= pattern.count {
                for index in searchFrom...(buffer.count - pattern.count) where buffer[index..<(index + pattern.count)].elementsEqual(pattern) {
                    return index
                }
                searchFrom = buffer.count - pattern.count + 1
            }
            try readMore()
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count { try readMore() }
    }

    private func readMore() throws {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw BenchError("the server closed the connection (errno \(errno))") }
            buffer += chunk[0..<count]
            return
        }
    }
}
