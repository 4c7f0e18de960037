import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Cheap event stream clients: plain sockets read by a few threads through poll(2), so that a
/// thousand streams cost a thousand descriptors and no thread each.
///
/// A reader does not parse Server-Sent Events: it scans the bytes for the `event: connected`
/// line, then for `"text":"bench-<number>"` (only a message record has a `text` field, so each
/// send matches once per stream, whatever other events it causes) and records the arrival time
/// of each send's number in the ``Tally``. Bytes split across reads are kept until complete.
final class StreamReaders: Sendable {
    /// The bytes before a send's number in its message's JSON.
    static let needle = Array(#""text":"bench-"#.utf8)
    /// The line of the first event of a stream.
    static let connectedLine = Array("event: connected".utf8)

    private let inboxes: [Inbox]
    private let tally: Tally

    /// The sockets handed to one reader thread and not yet watched by it.
    private final class Inbox: Sendable {
        let sockets = Mutex<[Int32]>([])
    }

    /// Starts `threads` reader threads reporting to `tally`.
    init(threads: Int, tally: Tally) throws {
        inboxes = (0..<threads).map { _ in Inbox() }
        self.tally = tally
        for inbox in inboxes {
            let thread = Thread { [tally] in Self.readLoop(inbox: inbox, tally: tally) }
            thread.name = "stream-reader"
            thread.start()
        }
    }

    /// Opens stream number `index`: connects to 127.0.0.1:`port`, sends `request` (a whole
    /// HTTP request head) and hands the socket to a reader thread.
    func open(index: Int, port: Int, request: [UInt8]) throws {
        let socket = try BlockingSocket.connect(port: port)
        try BlockingSocket.writeAll(socket, request)
        let flags = fcntl(socket, F_GETFL)
        _ = fcntl(socket, F_SETFL, flags | O_NONBLOCK)
        inboxes[index % inboxes.count].sockets.withLock { $0.append(socket) }
    }

    /// What a reader keeps of one stream between reads.
    private struct StreamState {
        var pending: [UInt8] = []
        var connected = false
    }

    /// Watches its sockets with poll(2) (new ones are picked up within 20 ms) and reads every
    /// ready one until it would block.
    private static func readLoop(inbox: Inbox, tally: Tally) {
        var streams: [Int32: StreamState] = [:]
        var watched: [pollfd] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let added = inbox.sockets.withLock { sockets in
                defer { sockets = [] }
                return sockets
            }
            for socket in added { watched.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&watched, nfds_t(watched.count), 20)
            if ready <= 0 { continue }
            var arrivals: [(number: Int, time: UInt64)] = []
            var connected = 0
            for slot in watched.indices where watched[slot].revents != 0 {
                let socket = watched[slot].fd
                var state = streams[socket] ?? StreamState()
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
                    if count > 0 {
                        let time = ProcessStats.nanoseconds()
                        state.pending.append(contentsOf: chunk[0..<count])
                        scan(&state, time: time, arrivals: &arrivals, connected: &connected)
                    } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                        break
                    } else if count < 0 && errno == EINTR {
                        continue
                    } else {
                        // The server closed the stream (or it failed): stop watching it.
                        watched[slot].fd = -1
                        close(socket)
                        break
                    }
                }
                streams[socket] = state
            }
            if connected > 0 { tally.recordConnected(connected) }
            if !arrivals.isEmpty { tally.record(arrivals) }
        }
    }

    /// Finds the connected line and the sends' numbers in `state.pending`, then keeps only what
    /// could be the start of a match cut by the end of the read.
    private static func scan(
        _ state: inout StreamState, time: UInt64, arrivals: inout [(number: Int, time: UInt64)], connected: inout Int
    ) {
        let bytes = state.pending
        var keepFrom = max(0, bytes.count - connectedLine.count + 1)
        if !state.connected {
            if find(connectedLine, in: bytes, from: 0) != nil {
                state.connected = true
                connected += 1
            } else {
                state.pending = Array(bytes[keepFrom...])
                return
            }
        }
        var position = 0
        while let start = find(needle, in: bytes, from: position) {
            var index = start + needle.count
            var number = 0
            while index < bytes.count, let digit = asciiDigit(bytes[index]) {
                number = number * 10 + digit
                index += 1
            }
            guard index < bytes.count else {
                // The number may go on in the next read.
                keepFrom = min(keepFrom, start)
                break
            }
            arrivals.append((number, time))
            position = index
            keepFrom = max(keepFrom, index)
        }
        state.pending = keepFrom < bytes.count ? Array(bytes[keepFrom...]) : []
    }

    private static func asciiDigit(_ byte: UInt8) -> Int? {
        byte >= 48 && byte <= 57 ? Int(byte - 48) : nil
    }

    /// The index of the first `pattern` in `bytes` at or after `from`.
    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count - from >= pattern.count else { return nil }
        return bytes.withUnsafeBytes { haystack in
            pattern.withUnsafeBytes { needle in
                let base = haystack.baseAddress!
                var start = from
                let last = haystack.count - needle.count
                while start <= last {
                    guard let hit = memchr(base + start, Int32(needle[0]), last - start + 1) else { return nil }
                    let index = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + index, needle.baseAddress!, needle.count) == 0 { return index }
                    start = index + 1
                }
                return nil
            }
        }
    }
}
