import TestSupport

/// A client's `now`: timestamps a second apart from `start`, and the last one handed out, so
/// the model knows the `createdAt` a local record got.
final class StampClock: Sendable {
    private let value: Locked<Double>

    init(start: Double) { value = Locked(start) }

    /// The next timestamp.
    func next() -> Double { value.withLock { $0 += 1; return $0 } }

    /// The timestamp the next call to ``next()`` returns.
    var upcoming: Double { value.withLock { $0 + 1 } }
}
