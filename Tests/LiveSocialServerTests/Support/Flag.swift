import Foundation

/// A thread-safe boolean a task sets when it reaches a point.
///
/// `@unchecked Sendable`: `lock` guards `value`.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
