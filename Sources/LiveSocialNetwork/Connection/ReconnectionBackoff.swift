/// How long to wait before each reconnection: exponential backoff with full jitter, capped.
///
/// Attempt `n` (1 for the first retry) waits a random time between zero and
/// `min(maximumDelay, initialDelay × multiplier^(n-1))`, drawn uniformly: "full jitter", so
/// that clients dropped together by a server restart spread their reconnections instead of
/// arriving in waves. The ceiling stops growing at ``maximumDelay``.
public struct ReconnectionBackoff: Sendable, Hashable {
    /// The ceiling of the first retry's wait, in seconds.
    public var initialDelay: Double
    /// The most any wait can be, in seconds.
    public var maximumDelay: Double
    /// How much the ceiling grows from one attempt to the next.
    public var multiplier: Double

    /// Creates a backoff schedule; the defaults wait up to 0.5 s, 1 s, 2 s... and never more than 30 s.
    public init(initialDelay: Double = 0.5, maximumDelay: Double = 30, multiplier: Double = 2) {
        precondition(initialDelay >= 0 && maximumDelay >= initialDelay && multiplier >= 1, "a backoff grows from a non-negative start to its cap")
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
    }

    /// The ceiling of attempt `attempt`'s wait (attempts count from 1).
    public func ceiling(forAttempt attempt: Int) -> Double {
        guard initialDelay > 0 else { return 0 }
        var ceiling = initialDelay
        for _ in 1..<max(attempt, 1) {
            ceiling *= multiplier
            if ceiling >= maximumDelay { return maximumDelay }
        }
        return min(ceiling, maximumDelay)
    }

    /// Attempt `attempt`'s wait: uniform in `0...ceiling(forAttempt:)`, drawn from `random`.
    public func delay(forAttempt attempt: Int, using random: inout some RandomNumberGenerator) -> Double {
        let ceiling = ceiling(forAttempt: attempt)
        return ceiling > 0 ? Double.random(in: 0...ceiling, using: &random) : 0
    }
}
