import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP proxy on a loopback port of its own (port 0) between clients and a server, that plays
/// a ``FaultScript`` on the bytes of each direction: delays, stalls, drips, cuts and resets.
///
/// The rule, set with ``setRule(_:)``, is asked for a script when a client connects and when a
/// client's bytes start an HTTP request (a read that begins with a method name: URLSession
/// writes a request's head at the start of a write and never pipelines). A script given for a
/// request replaces what is left of both directions' scripts, from that request's first byte
/// on the way in and from the next byte of the answer on the way out. The rule runs on the
/// proxy's threads, never under its locks.
///
/// Built on blocking POSIX sockets: one thread accepts, two threads pump each connection. A
/// client whose server cannot be reached is reset at once, as a refused connection would be.
/// The server's own FIN is passed on as a FIN (a half close), its RST as an RST.
///
/// With several upstream ports (instances of one service), each new connection goes to the first
/// that accepts it, as a reverse proxy fails over: a killed instance's clients reach the next.
final class FaultProxy: Sendable {
    /// The port clients connect to.
    let port: Int
    /// The servers' ports on 127.0.0.1, tried in order for each new connection.
    let upstreamPorts: [Int]
    private let listener: Int32
    private let state = Mutex(State())
    /// The request lines seen, in order: for tests that wait for a request to pass.
    let requestLines: AsyncStream<String>
    private let requestLineSink: AsyncStream<String>.Continuation

    private struct State {
        var rule: (@Sendable (FaultTrigger) -> FaultScript?)?
        var connections: [Int: ProxiedConnection] = [:]
        var connectionCount = 0
        var requestCount = 0
        var stopped = false
    }

    /// The proxy's address, as a client's server URL.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Listens on a free loopback port and forwards to `upstreamPort` on 127.0.0.1.
    convenience init(upstreamPort: Int) throws {
        try self.init(upstreamPorts: [upstreamPort])
    }

    /// Listens on a free loopback port and forwards each connection to the first of
    /// `upstreamPorts` on 127.0.0.1 that accepts it.
    init(upstreamPorts: [Int]) throws {
        precondition(!upstreamPorts.isEmpty, "a proxy needs an upstream port")
        self.upstreamPorts = upstreamPorts
        let listener = socket(AF_INET, Int32(SOCK_STREAM_VALUE), 0)
        guard listener >= 0 else { throw TestServerError("the fault proxy could not open a socket: errno \(errno)") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            close(listener)
            throw TestServerError("the fault proxy could not listen on loopback: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        (requestLines, requestLineSink) = AsyncStream<String>.makeStream()
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "FaultProxy.accept"
        thread.start()
    }

    /// Sets the rule that gives each new connection and each request its script (nil: no faults).
    func setRule(_ rule: (@Sendable (FaultTrigger) -> FaultScript?)?) {
        state.withLock { $0.rule = rule }
    }

    /// Resets every open connection now (RST to both sides); new ones are still accepted.
    ///
    /// A reset, not a cut: a FIN in the middle of an answer's head makes FoundationNetworking
    /// (Swift 6.3.1, Linux) stop the client process ("Transfer completed, but there's no
    /// response", swift-corelibs-foundation issue 5285), and an answer may be dripping.
    func resetAll() {
        let open = state.withLock { Array($0.connections.values) }
        for connection in open { connection.end(.reset) }
    }

    /// The open connections, with what is left of their scripts: for a failure's report.
    var openConnections: [String] {
        state.withLock { Array($0.connections.values) }.sorted { $0.number < $1.number }.map(\.description)
    }

    /// Stops listening and resets every open connection (see ``resetAll()``).
    func stop() {
        let open = state.withLock { state -> [ProxiedConnection] in
            state.stopped = true
            return Array(state.connections.values)
        }
        shutdown(listener, Int32(SHUT_RDWR_VALUE))
        for connection in open { connection.end(.reset) }
        requestLineSink.finish()
    }

    deinit {
        close(listener)
    }

    // MARK: Threads

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            if state.withLock({ $0.stopped }) {
                close(client)
                return
            }
            Self.noDelay(client)
            guard let server = upstreamPorts.lazy.compactMap({ Self.connectLoopback(port: $0) }).first else {
                Self.lingerZero(client)
                close(client)
                continue
            }
            Self.noDelay(server)
            let (number, rule) = state.withLock { state -> (Int, (@Sendable (FaultTrigger) -> FaultScript?)?) in
                state.connectionCount += 1
                return (state.connectionCount, state.rule)
            }
            let connection = ProxiedConnection(number: number, client: client, server: server) { [weak self] number in
                _ = self?.state.withLock { $0.connections.removeValue(forKey: number) }
            }
            if let script = rule?(.connection(number)) { connection.install(script) }
            state.withLock { $0.connections[number] = connection }
            for direction in [ProxiedConnection.Direction.toServer, .toClient] {
                let pump = Thread { [self] in
                    connection.pump(direction) { line in self.request(line) }
                }
                pump.name = "FaultProxy.\(number).\(direction)"
                pump.start()
            }
        }
    }

    /// Counts a request, reports its line and asks the rule for its script.
    private func request(_ line: String) -> FaultScript? {
        let (number, rule) = state.withLock { state -> (Int, (@Sendable (FaultTrigger) -> FaultScript?)?) in
            state.requestCount += 1
            return (state.requestCount, state.rule)
        }
        requestLineSink.yield(line)
        return rule?(.request(line: line, number: number))
    }

    // MARK: Sockets

    /// A socket connected to `port` on 127.0.0.1, or nil when nothing listens there.
    static func connectLoopback(port: Int) -> Int32? {
        let server = socket(AF_INET, Int32(SOCK_STREAM_VALUE), 0)
        guard server >= 0 else { return nil }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(server)
            return nil
        }
        return server
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    static func noDelay(_ socket: Int32) {
        var on: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Makes the next `close` of `socket` send an RST instead of a FIN.
    static func lingerZero(_ socket: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }
}

#if canImport(Glibc)
    let SOCK_STREAM_VALUE = SOCK_STREAM.rawValue
    let SHUT_RDWR_VALUE = SHUT_RDWR
    let SHUT_RD_VALUE = SHUT_RD
    let SHUT_WR_VALUE = SHUT_WR
    let SEND_FLAGS = Int32(MSG_NOSIGNAL)
#else
    let SOCK_STREAM_VALUE = SOCK_STREAM
    let SHUT_RDWR_VALUE = SHUT_RDWR
    let SHUT_RD_VALUE = SHUT_RD
    let SHUT_WR_VALUE = SHUT_WR
    let SEND_FLAGS: Int32 = 0
#endif
