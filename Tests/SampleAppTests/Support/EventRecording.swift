import LiveData
import TestSupport

/// Records every event a `LiveEvent` delivers to an always-active observer (and the kept ones,
/// which it receives as soon as recording starts), so a test can await them in order.
@MainActor
final class EventRecording<Value> {
    let source: LiveEvent<Value>
    let log = Deliveries<Value>()
    private var observer: Observer<Value>?

    init(_ source: LiveEvent<Value>) {
        self.source = source
        let log = self.log
        observer = source.observeForever { log.record($0) }
    }

    /// Every event delivered so far.
    var values: [Value] { log.all }

    /// The last event delivered, if any.
    var latest: Value? { log.all.last }

    /// How many events were delivered.
    var count: Int { log.all.count }

    /// Waits for the next event satisfying `condition` (earlier ones are read).
    @discardableResult
    func next(where condition: (Value) -> Bool = { _ in true }) async throws -> Value {
        try await log.next(where: condition)
    }

    /// Stops recording.
    func stop() {
        guard let observer else { return }
        source.remove(observer: observer)
        self.observer = nil
    }
}

extension LiveEvent {
    /// Starts recording this event's deliveries.
    func record() -> EventRecording<Value> { EventRecording(self) }
}
