import Foundation

/// The time the network transport reads and sleeps on: wall time in an app, a clock a test moves
/// by hand in the tests.
///
/// The transport sleeps on it before each reconnection, to renew a session before it expires,
/// and to notice a stream that stopped sending heartbeats.
public protocol NetworkClock: Sendable {
    /// The current time.
    var now: Date { get }

    /// Returns when ``now`` reaches `deadline` (at once if it has); throws `CancellationError`
    /// when the task is cancelled first.
    func sleep(until deadline: Date) async throws
}

/// The wall clock: `Date()` and `Task.sleep`.
public struct SystemNetworkClock: NetworkClock {
    /// Creates the wall clock.
    public init() {}

    /// The current time.
    public var now: Date { Date() }

    /// Sleeps until `deadline` with `Task.sleep`.
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) } else { try Task.checkCancellation() }
    }
}
