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
