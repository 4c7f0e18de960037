import Foundation
@testable import LiveSocialNetwork

/// A network clock whose time moves only when a test advances it.
///
/// Sleepers wake, in deadline order, once ``advance(by:)`` moves ``now`` to their deadline; a
/// cancelled sleeper wakes at once with `CancellationError`. ``waitForSleepers(_:)`` lets a test
/// wait until the code it drives is asleep before advancing, so no advance is lost.
///
/// `@unchecked Sendable`: `lock` guards `state`; continuations are resumed after unlocking.
final class ManualNetworkClock: NetworkClock, @unchecked Sendable {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var cancelledEarly: Set<UInt64> = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let lock = NSLock()
    private var state: State

    init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = State(now: start)
    }

    var now: Date { lock.withLock { state.now } }

    /// The deadlines of the tasks asleep now, earliest first.
    var deadlines: [Date] { lock.withLock { state.sleepers.map(\.deadline).sorted() } }

    func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        let id = lock.withLock {
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case sleeping([CheckedContinuation<Void, Never>]), wake, cancelled }
                let outcome = lock.withLock { () -> Outcome in
                    if state.cancelledEarly.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .wake }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    let count = state.sleepers.count
                    let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
                    state.waiters.removeAll { $0.count <= count }
                    return .sleeping(ready)
                }
                switch outcome {
                case .sleeping(let ready): ready.forEach { $0.resume() }
                case .wake: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = lock.withLock { () -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes the sleepers whose deadline has come.
    func advance(by seconds: Double) {
        advance(to: now.addingTimeInterval(seconds))
    }

    /// Moves time forward to `date` (if later) and wakes the sleepers whose deadline has come.
    func advance(to date: Date) {
        let due = lock.withLock { () -> [Sleeper] in
            if date > state.now { state.now = date }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Suspends until at least `count` tasks sleep on the clock.
    func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if state.sleepers.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
