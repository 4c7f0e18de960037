import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fault proxy itself, in front of a real server: bytes pass unchanged, drips and delays
/// change only the timing, a cut is a clean end (FIN) and a reset an RST, and the rule sees each
/// request line.
@Suite("FaultProxy")
struct FaultProxyTests {
    static let request = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)

    @Test(arguments: [
        FaultScript(), FaultScript(toClient: [.drip(bytes: 10_000, chunk: 7, pauseMilliseconds: 1)]),
        FaultScript(toServer: [.drip(bytes: 10_000, chunk: 3, pauseMilliseconds: 0)], toClient: [.delay(milliseconds: 20)]),
        FaultScript(toServer: [.stall(milliseconds: 30)], toClient: [.pass(bytes: 5), .stall(milliseconds: 30)]),
    ])
    func scriptsThatOnlyChangeTimingPassTheAnswerWhole(_ script: FaultScript) async throws {
        try await withServer { server in
            let proxy = try FaultProxy(upstreamPort: server.port)
            defer { proxy.stop() }
            proxy.setRule { _ in script }
            let direct = try await Self.exchange(port: server.port)
            let proxied = try await Self.exchange(port: proxy.port)
            #expect(proxied.error == 0)
            #expect(String(decoding: proxied.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            #expect(Self.body(proxied.bytes) == Self.body(direct.bytes))
            #expect(!Self.body(proxied.bytes).isEmpty)
        }
    }

    @Test func aCutBeforeTheAnswerEndsCleanlyWithNoBytes() async throws {
        try await withServer { server in
            let proxy = try FaultProxy(upstreamPort: server.port)
            defer { proxy.stop() }
            proxy.setRule { _ in FaultScript(toClient: [.cut]) }
            let answer = try await Self.exchange(port: proxy.port)
            #expect(answer.bytes.isEmpty)
            #expect(answer.error == 0, "a FIN, not an error")
        }
    }

    @Test func aResetInTheAnswerIsAConnectionReset() async throws {
        try await withServer { server in
            let proxy = try FaultProxy(upstreamPort: server.port)
            defer { proxy.stop() }
            proxy.setRule { _ in FaultScript(toClient: [.pass(bytes: 9), .reset]) }
            let answer = try await Self.exchange(port: proxy.port)
            #expect(answer.error == ECONNRESET)
            #expect(answer.bytes.count <= 9)
        }
    }

    @Test func theRuleSeesEachConnectionAndRequestLine() async throws {
        try await withServer { server in
            let proxy = try FaultProxy(upstreamPort: server.port)
            defer { proxy.stop() }
            let triggers = TriggerLog()
            proxy.setRule { trigger in
                triggers.append(trigger)
                return nil
            }
            _ = try await Self.exchange(port: proxy.port)
            #expect(triggers.all == [.connection(1), .request(line: "GET /health HTTP/1.1", number: 1)])
            var lines = proxy.requestLines.makeAsyncIterator()
            #expect(await lines.next() == "GET /health HTTP/1.1")
        }
    }

    @Test func aClientOfAServerThatIsGoneIsReset() async throws {
        let server = try await TestServer.start()
        let port = server.port
        await server.stop()
        let proxy = try FaultProxy(upstreamPort: port)
        defer { proxy.stop() }
        let answer = try await Self.exchange(port: proxy.port)
        #expect(answer.bytes.isEmpty)
        #expect(answer.error == ECONNRESET || answer.error == EPIPE)
    }

    /// Sends ``request`` to `port` on a plain socket and reads until the end: the bytes read, and
    /// the errno of a failed read or write (0 for a clean end). On a thread of Dispatch's: the
    /// blocking reads must not hold the threads the in-process server's tasks run on.
    static func exchange(port: Int) async throws -> (bytes: [UInt8], error: Int32) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try blockingExchange(port: port) })
            }
        }
    }

    private static func blockingExchange(port: Int) throws -> (bytes: [UInt8], error: Int32) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM_VALUE), 0)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = FaultProxy.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestServerError("could not connect to port \(port): errno \(errno)") }
        let sent = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, SEND_FLAGS) }
        if sent < 0 { return ([], errno) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (bytes, 0) }
            if count < 0 { return (bytes, errno) }
            bytes += buffer[0..<count]
        }
    }

    /// An answer's body: what follows the blank line after its head.
    static func body(_ answer: [UInt8]) -> String {
        let text = String(decoding: answer, as: UTF8.self)
        guard let range = text.range(of: "\r\n\r\n") else { return "" }
        return String(text[range.upperBound...])
    }
}
