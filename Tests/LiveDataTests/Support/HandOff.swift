import Foundation
@testable import LiveData

/// Hands one object to another thread and lets it drop the last reference there.
///
/// `@unchecked Sendable`: `lock` guards `object`.
final class HandOff<Object: AnyObject & Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var object: Object?

    init(_ object: Object) { self.object = object }

    /// Lets go of the object; returns whether the caller ran on the main queue.
    func release() -> Bool {
        lock.lock()
        let taken = object
        object = nil
        lock.unlock()
        _ = taken
        return MainQueue.isCurrent
    }
}
