import BenchmarkSupport

/// What an observer of scenario 2 saw: its deliveries, the first one (the seed message), and
/// the moment the observed count reached the target, or the time budget ran out.
@MainActor
final class EventProgress {
    /// The count that means every event arrived.
    let target: Int
    /// Deliveries since ``startCounting()``.
    private(set) var deliveries = 0
    /// The count the latest delivery showed.
    private(set) var lastCount = 0
    /// Fired by the first delivery.
    let ready = FirstCallback<Void>()
    /// Fired with the time of the delivery whose count reached ``target``, or of ``expire(at:)``.
    let done = FirstCallback<ContinuousClock.Instant>()

    /// When the last event's write was committed, as its completion reported.
    private(set) var committedAt: ContinuousClock.Instant?

    init(target: Int) { self.target = target }

    /// Fired by ``committed(at:)``.
    let commit = FirstCallback<Void>()

    /// Records the commit of the last event's write.
    func committed(at instant: ContinuousClock.Instant) {
        committedAt = instant
        commit.fire(())
    }

    /// Records one delivery of the observed state.
    func observed(count: Int, at instant: ContinuousClock.Instant) {
        deliveries += 1
        lastCount = count
        ready.fire(())
        if count == target { done.fire(instant) }
    }

    /// Ends the wait when the budget runs out before every event arrived.
    func expire(at instant: ContinuousClock.Instant) { done.fire(instant) }

    /// Whether every event arrived.
    var isComplete: Bool { lastCount == target }

    func startCounting() { deliveries = 0 }
}
