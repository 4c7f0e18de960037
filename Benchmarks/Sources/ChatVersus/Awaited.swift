/// A value one callback delivers and the benchmark waits for, on the main actor: ``wait(_:)``
/// returns what the first ``fire(_:)`` gave (later calls are ignored), or stops the run with a
/// fatal error when nothing came within the time limit, so that a collection that never answers
/// cannot hang CI.
@MainActor
final class Awaited<Value: Sendable> {
    private var continuation: CheckedContinuation<Value, Never>?
    private var value: Value?
    private let limit: Duration

    init(limit: Duration = .seconds(120)) { self.limit = limit }

    /// Whether a value was delivered.
    var isFired: Bool { value != nil }

    /// Delivers `value` to the waiter, once.
    func fire(_ value: Value) {
        guard self.value == nil else { return }
        self.value = value
        if let continuation {
            self.continuation = nil
            continuation.resume(returning: value)
        }
    }

    /// The value delivered, waiting for it if needed; `what` names it in the fatal error.
    func wait(_ what: @autoclosure () -> String) async -> Value {
        if let value { return value }
        let description = what()
        let watchdog = Task { [limit] in
            try? await Task.sleep(for: limit)
            if !Task.isCancelled, !isFired { fatalError("no \(description) within \(limit)") }
        }
        defer { watchdog.cancel() }
        return await withCheckedContinuation { continuation = $0 }
    }
}
