/// How long the client waits before it tries again after a server failure, and the clock it
/// waits on (see ``SocialClient/retryPolicy``): before it sends a pending message again, and
/// before it reads the change log again after a catch-up the server failed.
///
/// A server failure (``SocialAPIError/serverFailure(_:)``, an HTTP 5xx) means the server was
/// reached but could not answer: its database restarting behind it, say. The
/// connection stays up, so the client cannot wait for a reconnection; it tries again after a
/// wait that doubles from one failure to the next, from ``initialDelay`` up to
/// ``maximumDelay``. Retry `n` (1 after the first failure) waits
/// `min(maximumDelay, initialDelay × multiplier^(n-1))`, shortened by a random part of up to
/// ``jitter`` of it, so that clients failed together by one server do not all come back at once.
///
/// ```swift
/// // Waits of 0.5 s, 1 s, 2 s, … up to 30 s, each shortened by up to a quarter at random.
/// client.retryPolicy = RetryPolicy()
/// // In a test: exact waits, on a clock the test moves.
/// client.retryPolicy = RetryPolicy(clock: manualClock, random: { 0 })
/// ```
public struct RetryPolicy: Sendable {
    /// The longest wait before the first retry.
    public var initialDelay: Duration
    /// The longest any wait can be.
    public var maximumDelay: Duration
    /// How much the longest wait grows from one retry to the next.
    public var multiplier: Double
    /// The largest part of each wait taken off at random, from 0 (none: every wait is its
    /// ceiling) to 1 (the wait is anywhere between zero and its ceiling).
    public var jitter: Double
    /// The clock the client waits on: `ContinuousClock` in an app, a clock moved by hand in tests.
    public var clock: any Clock<Duration>
    /// A random number in `0..<1` for each wait; with `{ 0 }`, every wait is its ceiling.
    public var random: @Sendable () -> Double

    /// Creates a schedule; the defaults wait up to 0.5 s, 1 s, 2 s, … and never more than 30 s,
    /// each wait shortened by up to a quarter at random, on the continuous clock.
    ///
    /// - Precondition: `initialDelay` is positive, `maximumDelay` is at least `initialDelay`,
    ///   `multiplier` is at least 1 and `jitter` is in `0...1`.
    public init(
        initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30), multiplier: Double = 2,
        jitter: Double = 0.25, clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        precondition(initialDelay > .zero, "the first wait must be positive, or a failing server is asked without pause")
        precondition(maximumDelay >= initialDelay, "the longest wait cannot be shorter than the first")
        precondition(multiplier >= 1, "waits cannot shrink from one retry to the next")
        precondition((0...1).contains(jitter), "jitter is a part of the wait, from 0 to 1")
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.clock = clock
        self.random = random
    }

    /// The longest wait before retry `retry` (retries count from 1): ``initialDelay`` times
    /// ``multiplier`` for each retry before it, at most ``maximumDelay``.
    public func ceiling(forRetry retry: Int) -> Duration {
        guard retry > 1 else { return initialDelay }
        let maximum = Self.seconds(maximumDelay)
        var ceiling = Self.seconds(initialDelay)
        for _ in 1..<retry {
            ceiling *= multiplier
            if ceiling >= maximum { return maximumDelay }
        }
        return ceiling >= maximum ? maximumDelay : .seconds(ceiling)
    }

    /// The wait before retry `retry`: its ``ceiling(forRetry:)`` less a random part of up to
    /// ``jitter`` of it (``random`` is read once; a value outside `0..<1` is clamped).
    public func delay(forRetry retry: Int) -> Duration {
        let ceiling = ceiling(forRetry: retry)
        let draw = min(max(random(), 0), 1)
        guard jitter > 0, draw > 0 else { return ceiling }
        return .seconds(Self.seconds(ceiling) * (1 - jitter * draw))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
