import Foundation

/// What the stream readers saw, shared with the senders: when each send left, how many clients
/// have its event, the latencies, and how many streams are connected.
///
/// Sends are numbered 0, 1, 2...: those below `pacedSends` belong to the paced phase (one send
/// at a time), the others to the load phase; each phase has its own histogram.
///
/// `@unchecked Sendable`: every stored property is read and written under `condition`'s lock.
final class Tally: @unchecked Sendable {
    private let condition = NSCondition()
    private let clients: Int
    private let pacedSends: Int
    private var sentAt: [UInt64]
    private var received: [Int32]
    private var paced = LatencyHistogram()
    private var loaded = LatencyHistogram()
    private var completed = 0
    private var lastCompletion: UInt64 = 0
    private var connected = 0
    private var strays = 0

    /// A tally for `clients` streams and at most `capacity` sends, allocated (and touched) now.
    init(clients: Int, pacedSends: Int, capacity: Int) {
        self.clients = clients
        self.pacedSends = pacedSends
        sentAt = [UInt64](repeating: 0, count: capacity)
        received = [Int32](repeating: 0, count: capacity)
    }

    var capacity: Int { condition.withLock { sentAt.count } }

    /// Notes that send `number` leaves now; returns the time.
    func markSent(_ number: Int) {
        condition.withLock { sentAt[number] = ProcessStats.nanoseconds() }
    }

    /// Records the arrival of events at one client: (send number, arrival time) pairs.
    func record(_ arrivals: [(number: Int, time: UInt64)]) {
        condition.withLock {
            var finished = false
            for (number, time) in arrivals {
                guard number >= 0, number < sentAt.count, sentAt[number] > 0 else {
                    strays += 1
                    continue
                }
                let latency = time > sentAt[number] ? time - sentAt[number] : 0
                if number < pacedSends { paced.add(nanoseconds: latency) } else { loaded.add(nanoseconds: latency) }
                received[number] += 1
                if received[number] == clients {
                    completed += 1
                    lastCompletion = max(lastCompletion, time)
                    finished = true
                }
            }
            if finished { condition.broadcast() }
        }
    }

    /// Records streams that received their `connected` event.
    func recordConnected(_ count: Int) {
        condition.withLock {
            connected += count
            condition.broadcast()
        }
    }

    /// Waits until `isDone` holds for (connected streams, sends complete at every client), or
    /// `seconds` pass; returns whether it held.
    func wait(seconds: Double, until isDone: (_ connected: Int, _ completed: Int) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !isDone(connected, completed) {
            if !condition.wait(until: deadline) { return isDone(connected, completed) }
        }
        return true
    }

    /// Sends whose event reached every client, the time the last one did, and arrivals that
    /// matched no send.
    var progress: (completed: Int, lastCompletion: UInt64, strays: Int) {
        condition.withLock { (completed, lastCompletion, strays) }
    }

    /// How many clients have the event of send `number`.
    func clientsReached(_ number: Int) -> Int {
        condition.withLock { Int(received[number]) }
    }

    /// The latency percentiles, in milliseconds, of the paced and the load phase.
    func percentiles() -> (paced: (Double?, Double?, Int), loaded: (Double?, Double?, Int)) {
        condition.withLock {
            ((paced.percentile(0.5), paced.percentile(0.99), paced.count),
             (loaded.percentile(0.5), loaded.percentile(0.99), loaded.count))
        }
    }
}
