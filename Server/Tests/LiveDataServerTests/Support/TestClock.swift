import Foundation
import Synchronization

/// A wall clock the tests move by hand: token expiry and rate limits read it.
final class TestClock: Sendable {
    private let time: Mutex<Double>

    init(start: Double = 1_800_000_000) {
        time = Mutex(start)
    }

    /// The time now, in seconds since 1970.
    var now: Double { time.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by seconds: Double) {
        time.withLock { $0 += seconds }
    }
}
