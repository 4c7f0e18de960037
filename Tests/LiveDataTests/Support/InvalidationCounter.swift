import Foundation
import Observation
@testable import LiveData

/// Counts how often a read tracked with `withObservationTracking` is invalidated, tracking it
/// again after each invalidation (from inside the change handler, so a second mutation in the
/// same operation would count too).
@MainActor
final class InvalidationCounter {
    private(set) var count = 0
    /// Whether every invalidation came on the main queue (the main actor's executor).
    private(set) var allOnMainQueue = true
    private let read: @MainActor () -> Void

    /// Starts tracking `read`.
    init(_ read: @escaping @MainActor () -> Void) {
        self.read = read
        track()
    }

    private func invalidated(onMainQueue: Bool) {
        count += 1
        if !onMainQueue { allOnMainQueue = false }
        track()
    }

    private func track() {
        withObservationTracking { read() } onChange: { [weak self] in
            let onMain = MainQueue.isCurrent
            MainActor.assumeIsolated { self?.invalidated(onMainQueue: onMain) }
        }
    }
}

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
