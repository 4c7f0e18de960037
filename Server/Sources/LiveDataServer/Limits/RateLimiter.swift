import Synchronization

/// A token bucket per key (a session token's digest): each request takes one token; the bucket
/// holds at most `burst` and refills at `perSecond`. An empty bucket answers with how long to
/// wait, which the server sends as `Retry-After`.
public final class RateLimiter: Sendable {
    /// Requests a second a key may make over time.
    public let perSecond: Double
    /// Requests a key may make at once after being idle.
    public let burst: Double
    private let now: @Sendable () -> Double
    private let buckets = Mutex<[String: Bucket]>([:])

    private struct Bucket {
        var tokens: Double
        var updatedAt: Double
    }

    /// Buckets kept before full ones are dropped (a full bucket is the same as none).
    static let pruneThreshold = 10_000

    /// A limiter allowing `perSecond` requests a second per key, `burst` at once.
    ///
    /// - Parameter now: the time in seconds; tests pass a clock they move.
    public init(perSecond: Double, burst: Double, now: @escaping @Sendable () -> Double) {
        precondition(perSecond > 0 && burst >= 1, "a rate limit needs a positive rate and a burst of at least 1")
        self.perSecond = perSecond
        self.burst = burst
        self.now = now
    }

    /// Takes one request from `key`'s bucket: nil when allowed, else the whole seconds to wait
    /// (at least 1) before the next one is.
    public func admit(_ key: String) -> Int? {
        let time = now()
        return buckets.withLock { buckets in
            if buckets.count > Self.pruneThreshold { prune(&buckets, at: time) }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updatedAt: time)
            bucket.tokens = min(burst, bucket.tokens + max(0, time - bucket.updatedAt) * perSecond)
            bucket.updatedAt = time
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            let wait = (1 - bucket.tokens) / perSecond
            return max(1, Int(wait.rounded(.up)))
        }
    }

    private func prune(_ buckets: inout [String: Bucket], at time: Double) {
        buckets = buckets.filter { $0.value.tokens + (time - $0.value.updatedAt) * perSecond < burst }
    }
}
