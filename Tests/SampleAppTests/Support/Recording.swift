import LiveData
import TestSupport

/// Records every value a `LiveData` delivers to an always-active observer, starting with the
/// value it holds when recording starts (if any), so a test can await the deliveries in order.
@MainActor
final class Recording<Value> {
    let source: LiveData<Value>
    let log = Deliveries<Value?>()
    private var observer: Observer<Value?>?

    init(_ source: LiveData<Value>) {
        self.source = source
        let log = self.log
        let observer = source.observeForever { log.record($0) }
        self.observer = observer
        source.dispatch(initiator: observer)
    }

    /// Every value delivered so far.
    var values: [Value?] { log.all }

    /// The last value delivered, if any.
    var latest: Value? { log.all.last ?? nil }

    /// How many values were delivered.
    var count: Int { log.all.count }

    /// Waits for the next delivered non-nil value satisfying `condition` (earlier ones are read).
    @discardableResult
    func next(where condition: (Value) -> Bool = { _ in true }) async throws -> Value {
        let value = try await log.next { $0.map(condition) ?? false }
        return value!
    }

    /// Returns the latest value if it satisfies `condition`, else waits for one that does.
    @discardableResult
    func value(where condition: (Value) -> Bool) async throws -> Value {
        if let latest, condition(latest) {
            log.skipUnread()
            return latest
        }
        return try await next(where: condition)
    }

    /// Stops recording.
    func stop() {
        guard let observer else { return }
        source.remove(observer: observer)
        self.observer = nil
    }
}

extension LiveData {
    /// Starts recording this holder's deliveries.
    func record() -> Recording<Value> { Recording(self) }
}
