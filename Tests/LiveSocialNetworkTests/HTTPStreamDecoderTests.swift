import Foundation
import Testing

@testable import LiveSocialNetwork

@Suite struct HTTPStreamDecoderTests {
    static let chunked = Array((
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nX-Twice: a\r\nX-Twice: b\r\n\r\n"
            + "12\r\nevent: connected\n\n\r\n" + "d;note=ext\r\n: heartbeat\n\n\r\n" + "0\r\nTrailer: x\r\n\r\n").utf8)

    /// Everything the decoder gives for `bytes` fed in pieces of `size`: the head, and the body joined.
    static func decode(_ bytes: [UInt8], in size: Int) throws -> (head: HTTPResponse?, body: String, finished: Bool) {
        var decoder = HTTPStreamDecoder()
        var head: HTTPResponse?
        var body = Data()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            for part in try decoder.feed(bytes[start..<end]) {
                switch part {
                case .head(let response):
                    #expect(head == nil, "one head only")
                    head = response
                case .bytes(let data):
                    #expect(head != nil, "the body after the head")
                    body.append(data)
                }
            }
            start = end
        }
        return (head, String(decoding: body, as: UTF8.self), decoder.isFinished)
    }

    @Test func aChunkedAnswerReadsTheSameWhereverTheBytesSplit() throws {
        for size in 1...Self.chunked.count {
            let (head, body, finished) = try Self.decode(Self.chunked, in: size)
            #expect(head?.status == 200)
            #expect(head?.headers["content-type"] == "text/event-stream")
            #expect(head?.headers["x-twice"] == "a, b")
            #expect(body == "event: connected\n\n: heartbeat\n\n", "split every \(size) bytes")
            #expect(finished, "the last chunk and the trailers end the answer")
        }
    }

    @Test func aBodyWithALengthEndsAfterThatManyBytes() throws {
        let bytes = Array("HTTP/1.1 401 Unauthorized\r\nContent-Length: 5\r\n\r\nhello".utf8)
        for size in [1, 3, bytes.count] {
            let (head, body, finished) = try Self.decode(bytes, in: size)
            #expect(head?.status == 401)
            #expect(body == "hello")
            #expect(finished)
        }
    }

    @Test func aBodyWithoutLengthOrChunksLastsUntilTheConnectionCloses() throws {
        var decoder = HTTPStreamDecoder()
        let parts = try decoder.feed(Array("HTTP/1.0 200 OK\r\n\r\ndata: 1\n\n".utf8))
        #expect(parts == [.head(HTTPResponse(status: 200)), .bytes(Data("data: 1\n\n".utf8))])
        #expect(!decoder.isFinished)
        #expect(decoder.endsAtClose(), "closing the connection ends such a body")
    }

    @Test func aChunkedAnswerCutShortDoesNotEndAtClose() throws {
        var decoder = HTTPStreamDecoder()
        _ = try decoder.feed(Self.chunked.prefix(120))
        #expect(!decoder.isFinished)
        #expect(!decoder.endsAtClose(), "a stream cut in the middle is a lost connection")
    }

    @Test func anInterimAnswerIsSkipped() throws {
        let bytes = Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n".utf8)
        let (head, body, finished) = try Self.decode(bytes, in: 7)
        #expect(head?.status == 204)
        #expect(body.isEmpty)
        #expect(finished)
    }

    @Test(arguments: [
        "SMTP 220 ready\r\n\r\n",
        "HTTP/1.1 abc OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY",
    ])
    func bytesThatAreNotAnAnswerAreRefused(text: String) {
        var decoder = HTTPStreamDecoder()
        #expect(throws: HTTPStreamDecoder.Malformed.self) { try decoder.feed(Array(text.utf8)) }
    }

    @Test func anEndlessHeadIsRefused() {
        var decoder = HTTPStreamDecoder()
        let bytes = Array("HTTP/1.1 200 OK\r\n".utf8) + [UInt8](repeating: 65, count: HTTPStreamDecoder.lineLimit)
        #expect(throws: HTTPStreamDecoder.Malformed.self) { try decoder.feed(bytes) }
    }
}
