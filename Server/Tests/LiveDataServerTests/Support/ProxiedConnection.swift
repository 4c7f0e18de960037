import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client connection through a ``FaultProxy`` and its connection to the server: two pumps
/// (one thread each) that copy bytes and play each direction's script.
///
/// Its sockets are closed once, by the last pump to finish, so that no thread reads a closed
/// (and maybe reused) descriptor. An ending wakes a blocked pump with `shutdown`.
final class ProxiedConnection: Sendable, CustomStringConvertible {
    enum Direction: Sendable, CustomStringConvertible {
        case toServer
        case toClient

        var description: String { self == .toServer ? "toServer" : "toClient" }
    }

    enum Ending: Sendable {
        case cut
        case reset
    }

    let number: Int
    private let client: Int32
    private let server: Int32
    private let removed: @Sendable (Int) -> Void
    private let state = Mutex(State())

    private struct State {
        var toServer: [FaultStep] = []
        var toClient: [FaultStep] = []
        var ending: Ending?
        var pumpsDone = 0
        /// The request line of the newest request on the connection.
        var lastRequest = ""
        /// The bytes that went through each way.
        var bytesToServer = 0
        var bytesToClient = 0
    }

    init(number: Int, client: Int32, server: Int32, removed: @escaping @Sendable (Int) -> Void) {
        self.number = number
        self.client = client
        self.server = server
        self.removed = removed
    }

    /// The connection's number and what is left of its scripts.
    var description: String {
        state.withLock { state in
            "connection \(number) (\(state.lastRequest), \(state.bytesToServer) B in, \(state.bytesToClient) B out): "
                + "\(FaultScript(toServer: state.toServer, toClient: state.toClient))"
                + (state.ending.map { ", ending \($0)" } ?? "") + ", pumps done \(state.pumpsDone)"
        }
    }

    /// Replaces what is left of both directions' scripts.
    func install(_ script: FaultScript) {
        state.withLock {
            $0.toServer = script.toServer
            $0.toClient = script.toClient
        }
    }

    /// Ends the connection: a cut sends a FIN to both sides, a reset an RST. The first ending wins.
    func end(_ ending: Ending) {
        let first = state.withLock { state -> Bool in
            guard state.ending == nil else { return false }
            state.ending = ending
            return true
        }
        guard first else { return }
        switch ending {
        case .cut:
            shutdown(client, Int32(SHUT_RDWR_VALUE))
            shutdown(server, Int32(SHUT_RDWR_VALUE))
        case .reset:
            // The RST goes out at the close, once both pumps are out of their reads.
            FaultProxy.lingerZero(client)
            FaultProxy.lingerZero(server)
            shutdown(client, Int32(SHUT_RD_VALUE))
            shutdown(server, Int32(SHUT_RD_VALUE))
        }
    }

    /// Copies `direction`'s bytes until its source ends or the connection does; `request` is
    /// told each request line going to the server and may give a script for it.
    func pump(_ direction: Direction, request: (String) -> FaultScript?) {
        let source = direction == .toServer ? client : server
        let destination = direction == .toServer ? server : client
        var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
        defer { pumpFinished() }
        while true {
            if case .stall(let milliseconds)? = takeIf(direction, { if case .stall = $0 { true } else { false } }) {
                Thread.sleep(forTimeInterval: Double(milliseconds) / 1_000)
            }
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if state.withLock({ $0.ending != nil }) { return }
            if count == 0 {
                // A half close, passed on.
                shutdown(destination, Int32(SHUT_WR_VALUE))
                return
            }
            if count < 0 {
                end(.reset)
                return
            }
            var chunk = Array(buffer[0..<count])
            if direction == .toServer, let line = Self.requestLine(chunk) {
                state.withLock { $0.lastRequest = line }
                if let script = request(line) { install(script) }
            }
            while !chunk.isEmpty {
                guard let step = first(direction) else {
                    guard write(chunk, to: destination) else { return }
                    break
                }
                switch step {
                case .pass(let bytes):
                    let part = min(bytes, chunk.count)
                    replaceFirst(direction, with: bytes - part > 0 ? .pass(bytes: bytes - part) : nil)
                    guard write(Array(chunk.prefix(part)), to: destination) else { return }
                    chunk.removeFirst(part)
                case .delay(let milliseconds), .stall(let milliseconds):
                    replaceFirst(direction, with: nil)
                    Thread.sleep(forTimeInterval: Double(milliseconds) / 1_000)
                case .drip(let bytes, let size, let pause):
                    let part = min(max(size, 1), bytes, chunk.count)
                    replaceFirst(direction, with: bytes - part > 0 ? .drip(bytes: bytes - part, chunk: size, pauseMilliseconds: pause) : nil)
                    guard write(Array(chunk.prefix(part)), to: destination) else { return }
                    chunk.removeFirst(part)
                    Thread.sleep(forTimeInterval: Double(pause) / 1_000)
                case .cut:
                    end(.cut)
                    return
                case .reset:
                    end(.reset)
                    return
                }
            }
        }
    }

    /// The request line when `chunk` starts an HTTP request.
    static func requestLine(_ chunk: [UInt8]) -> String? {
        let methods = ["GET ", "POST ", "PUT ", "PATCH ", "DELETE ", "HEAD ", "OPTIONS "]
        let head = String(decoding: chunk.prefix(512), as: UTF8.self)
        guard methods.contains(where: head.hasPrefix) else { return nil }
        return head.split(separator: "\r\n", maxSplits: 1).first.map(String.init)
    }

    private func first(_ direction: Direction) -> FaultStep? {
        state.withLock { direction == .toServer ? $0.toServer.first : $0.toClient.first }
    }

    /// Removes and returns the direction's first step when `matches` it.
    private func takeIf(_ direction: Direction, _ matches: (FaultStep) -> Bool) -> FaultStep? {
        state.withLock { state -> FaultStep? in
            let steps = direction == .toServer ? state.toServer : state.toClient
            guard let step = steps.first, matches(step) else { return nil }
            if direction == .toServer { state.toServer.removeFirst() } else { state.toClient.removeFirst() }
            return step
        }
    }

    /// Replaces the direction's first step by `step`, or removes it.
    private func replaceFirst(_ direction: Direction, with step: FaultStep?) {
        state.withLock { state in
            func apply(_ steps: inout [FaultStep]) {
                guard !steps.isEmpty else { return }
                if let step { steps[0] = step } else { steps.removeFirst() }
            }
            if direction == .toServer { apply(&state.toServer) } else { apply(&state.toClient) }
        }
    }

    /// Writes all of `bytes`; false when the destination is gone (the connection then ends).
    private func write(_ bytes: [UInt8], to destination: Int32) -> Bool {
        state.withLock { state in
            if destination == server { state.bytesToServer += bytes.count } else { state.bytesToClient += bytes.count }
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(destination, $0.baseAddress! + offset, bytes.count - offset, SEND_FLAGS) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                end(.reset)
                return false
            }
            offset += written
        }
        return true
    }

    private func pumpFinished() {
        let last = state.withLock { state -> Bool in
            state.pumpsDone += 1
            return state.pumpsDone == 2
        }
        guard last else { return }
        close(client)
        close(server)
        removed(number)
    }
}
