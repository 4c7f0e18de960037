import Foundation

/// Reads an HTTP/1.1 answer from the bytes of a connection as they arrive: the status line and
/// header fields first, then the body, unchunked when it is sent in chunks.
///
/// It is the parsing half of ``SocketStreamConnection``, kept apart so that every split of the
/// bytes can be tested without a socket.
struct HTTPStreamDecoder {
    /// Bytes that do not make an HTTP/1.1 answer.
    struct Malformed: Error, Hashable {
        /// What was wrong.
        var reason: String
    }

    private enum Phase: Hashable {
        case head
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers
        /// A body without chunks: `remaining` bytes, or up to the end of the connection when nil.
        case plain(remaining: Int?)
        case done
    }

    /// The most bytes a head or a chunk-size line may take.
    static let lineLimit = 64 * 1024

    private var buffer: [UInt8] = []
    private var phase = Phase.head

    /// Whether the whole answer was read.
    var isFinished: Bool { phase == .done }

    /// Reads the next bytes; returns the head (once) and the body bytes they complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(Malformed) -> [StreamPart] {
        buffer.append(contentsOf: bytes)
        var parts: [StreamPart] = []
        var body = Data()
        func flushBody() {
            if !body.isEmpty { parts.append(.bytes(body)) }
            body = Data()
        }
        while true {
            switch phase {
            case .head:
                guard let end = Self.find([13, 10, 13, 10], in: buffer) else {
                    if buffer.count > Self.lineLimit { throw Malformed(reason: "the answer's head is over \(Self.lineLimit) bytes") }
                    flushBody()
                    return parts
                }
                let head = try Self.head(String(decoding: buffer[..<end], as: UTF8.self))
                buffer.removeFirst(end + 4)
                if (100..<200).contains(head.status) { continue }
                parts.append(.head(head))
                phase = try Self.bodyPhase(of: head)
            case .chunkSize:
                guard let end = Self.find([13, 10], in: buffer) else {
                    if buffer.count > Self.lineLimit { throw Malformed(reason: "a chunk's size line is over \(Self.lineLimit) bytes") }
                    flushBody()
                    return parts
                }
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                let digits = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                guard let size = Int(digits, radix: 16), size >= 0 else { throw Malformed(reason: "a chunk's size is not hexadecimal: \(line)") }
                phase = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let count = min(remaining, buffer.count)
                body.append(contentsOf: buffer[..<count])
                buffer.removeFirst(count)
                if count < remaining {
                    phase = .chunkData(remaining: remaining - count)
                    flushBody()
                    return parts
                }
                phase = .chunkEnd
            case .chunkEnd:
                guard buffer.count >= 2 else {
                    flushBody()
                    return parts
                }
                guard buffer[0] == 13, buffer[1] == 10 else { throw Malformed(reason: "a chunk does not end with CRLF") }
                buffer.removeFirst(2)
                phase = .chunkSize
            case .trailers:
                guard let end = Self.find([13, 10], in: buffer) else {
                    flushBody()
                    return parts
                }
                buffer.removeFirst(end + 2)
                if end == 0 { phase = .done }
            case .plain(let remaining):
                let count = remaining.map { min($0, buffer.count) } ?? buffer.count
                body.append(contentsOf: buffer[..<count])
                buffer.removeFirst(count)
                if let remaining {
                    phase = remaining == count ? .done : .plain(remaining: remaining - count)
                }
                flushBody()
                return parts
            case .done:
                flushBody()
                return parts
            }
        }
    }

    /// The connection ended: returns whether that ends the answer (a body without chunks or
    /// length, or an answer already read whole); false when the answer was cut short.
    func endsAtClose() -> Bool {
        switch phase {
        case .done, .plain(remaining: nil): true
        default: false
        }
    }

    private static func head(_ text: String) throws(Malformed) -> HTTPResponse {
        let lines = text.components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]), (100..<600).contains(status) else {
            throw Malformed(reason: "not an HTTP/1.1 status line: \(lines[0].prefix(80))")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Malformed(reason: "a header field without a colon: \(line.prefix(80))") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return HTTPResponse(status: status, headers: headers)
    }

    private static func bodyPhase(of head: HTTPResponse) throws(Malformed) -> Phase {
        if head.status == 204 || head.status == 304 { return .done }
        if head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true { return .chunkSize }
        if let length = head.headers["content-length"] {
            guard let count = Int(length), count >= 0 else { throw Malformed(reason: "a content length that is not a count: \(length)") }
            return count == 0 ? .done : .plain(remaining: count)
        }
        return .plain(remaining: nil)
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return start }
        }
        return nil
    }
}
