import Foundation

/// A clock that goes back a second at each reading, as a wall clock set back between two
/// readings would; for a `SocialClient`'s `now`.
final class FallingClock: @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `value`.
    private let lock = NSLock()
    private var value = 1_800_000_000.0

    /// The next reading: a second before the one before.
    func next() -> Double {
        lock.withLock {
            value -= 1
            return value
        }
    }
}
