import Foundation

/// A counter that fake handlers share across threads.
///
/// `@unchecked Sendable`: `lock` guards `value`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// Counts one more and returns the count.
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
