import Foundation
import LiveData

/// A clock whose time moves only when told to: deterministic time for tests and demos.
///
/// Sleepers wait until ``advance(by:)`` or ``advance(to:)`` moves ``now`` past their deadline;
/// they are resumed in deadline order (ties in the order they started sleeping). A sleeper
/// whose task is cancelled wakes at once with `CancellationError`. Nothing here waits for wall
/// time. ``waitForSleepers(_:)`` lets a test wait until the code it drives has gone to sleep
/// before advancing, so no advance is ever lost.
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(1)) }
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(1))   // the task finishes
/// ```
///
/// Continuations are resumed after the state's lock is let go of.
public final class ManualClock: Clock, Sendable {
    /// A point in the clock's time: the duration since the clock was created.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// The time since the clock's start.
        public var offset: Duration

        /// Creates an instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, such as "1.5 seconds".
        public var description: String { offset.description }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var cancelledBeforeSleeping: Set<UInt64> = []
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = LockedState(State())

    /// Creates a clock at offset zero.
    public init() {}

    /// The current time.
    public var now: Instant { withLock { $0.now } }

    /// The clock's resolution: any duration.
    public var minimumResolution: Duration { .zero }

    /// The number of tasks sleeping on the clock.
    public var sleeperCount: Int { withLock { $0.sleepers.count } }

    /// Sleeps until ``now`` reaches `deadline`; returns at once if it already has.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the deadline.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case sleeping([CheckedContinuation<Void, Never>]), wake, cancelled }
                let outcome = withLock { state -> Outcome in
                    if state.cancelledBeforeSleeping.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .wake }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .sleeping(Self.takeSatisfiedWaiters(&state))
                }
                switch outcome {
                case .sleeping(let waiters): waiters.forEach { $0.resume() }
                case .wake: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeSleeping.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        withLock { _ = $0.cancelledBeforeSleeping.remove(id) }
    }

    /// Moves time forward by `duration` and wakes the sleepers whose deadline has come, in deadline order.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a manual clock cannot go back in time")
        let target = withLock { $0.now.advanced(by: duration) }
        advance(to: target)
    }

    /// Moves time forward to `instant` (if it is later than ``now``) and wakes the sleepers
    /// whose deadline has come, in deadline order.
    public func advance(to instant: Instant) {
        let due = withLock { state -> [Sleeper] in
            if instant > state.now { state.now = instant }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Suspends until at least `count` tasks are sleeping on the clock.
    ///
    /// Use it before ``advance(by:)`` to be sure the code under test has started its sleep.
    /// It does not observe cancellation: it returns only when the sleepers exist.
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func takeSatisfiedWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
        state.sleeperWaiters.removeAll { $0.count <= count }
        return ready
    }

    private func withLock<T>(_ body: (inout State) -> T) -> T {
        state.withLock(body)
    }
}
