import TestSupport

/// A test double's hold on one answer: armed by the test, it keeps the next answer the server has
/// given until the test releases it, so that the test decides what happens meanwhile (an event
/// that arrives, a change the server makes). `Release` is what the release tells the waiting
/// request (nothing, or whether its answer is lost, say).
final class AnswerHold<Release: Sendable>: Sendable {
    private struct State {
        var armed = false
        var held: CheckedContinuation<Release, Never>?
    }

    private let state = Locked(State())
    /// What an answer that is not held gets.
    private let passing: Release

    /// A hold whose unheld answers get `passing`.
    init(passing: Release) {
        self.passing = passing
    }

    /// Makes the next answer wait for ``release(_:)`` (or stops that, with `false`).
    func arm(_ holds: Bool = true) { state.withLock { $0.armed = holds } }

    /// Whether an answer waits for ``release(_:)``.
    var isHolding: Bool { state.withLock { $0.held != nil } }

    /// Hands the held answer on, telling it `value`.
    func release(_ value: Release) {
        let held = state.withLock { state in
            defer { state.held = nil }
            return state.held
        }
        held?.resume(returning: value)
    }

    /// Disarms the hold and hands a held answer on as unheld.
    func releaseAll() {
        state.withLock { $0.armed = false }
        release(passing)
    }

    /// Called by the double with the server's answer in hand: waits there when armed, and
    /// returns what the release says (`passing` at once when not armed).
    func pass() async -> Release {
        await withCheckedContinuation { (continuation: CheckedContinuation<Release, Never>) in
            let holds = state.withLock { state in
                guard state.armed else { return false }
                state.armed = false
                state.held = continuation
                return true
            }
            if !holds { continuation.resume(returning: passing) }
        }
    }
}

extension AnswerHold where Release == Void {
    /// A hold of answers that carry nothing back.
    convenience init() { self.init(passing: ()) }

    /// Hands the held answer on.
    func release() { release(()) }
}
