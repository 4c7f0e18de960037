import Foundation

/// Client-side timestamps (seconds since 1970) that only move forward, a second at a time from
/// 2027, later than every timestamp of the embedded server's tests; give `next` as a client's `now`.
public final class Stamps: @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `value`.
    private let lock = NSLock()
    private var value = 1_800_000_000.0

    /// Creates a clock at its start.
    public init() {}

    /// The next timestamp: a second after the one before.
    public func next() -> Double {
        lock.withLock {
            value += 1
            return value
        }
    }
}
