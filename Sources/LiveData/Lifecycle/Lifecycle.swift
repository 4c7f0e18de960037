/// The lifecycle of an owner of observations: a screen, a view, a coordinator.
///
/// A ``LifecycleOwner`` exposes one `Lifecycle` and moves its ``state`` as it appears, disappears
/// and goes away. ``LiveData`` reads the state of the owner passed to
/// ``LiveData/observe(owner:_:)``:
///
/// - an observer is *active* only while the state is ``State-swift.enum/started`` or
///   ``State-swift.enum/resumed``; values set while it is inactive are not delivered, and when it
///   becomes active again it receives the latest value once, if one was set since it registered
///   that it has not received;
/// - on ``State-swift.enum/destroyed`` its observers are removed at once, and an owner that is
///   already destroyed is ignored by `observe(owner:)`.
///
/// A lifecycle starts at ``State-swift.enum/initialized``. ``State-swift.enum/destroyed`` is
/// final: moving a destroyed lifecycle to any other state, or moving back to
/// ``State-swift.enum/initialized``, is a programming error and stops the program with a message
/// (as Android's `LifecycleRegistry` refuses it).
///
/// A lifecycle belongs to one owner: create it in the owner (`let lifecycle = Lifecycle()`) and
/// drive it from the owner's own appearance callbacks.
@MainActor
public final class Lifecycle {
    /// The states of a ``Lifecycle``, ordered from ``destroyed`` (lowest) to ``resumed`` (highest).
    public enum State: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// The owner is gone for good; its observers have been removed.
        case destroyed
        /// The owner exists but has not been set up yet: the state of a new ``Lifecycle``.
        case initialized
        /// The owner is set up but not visible: its observers are inactive.
        case created
        /// The owner is visible: its observers are active.
        case started
        /// The owner is visible and interactive: its observers are active.
        case resumed

        /// Whether observers of an owner in this state receive values.
        public var isActive: Bool { self >= .started }

        /// Whether this state is at least `state` in the order
        /// `destroyed < initialized < created < started < resumed`.
        public func isAtLeast(_ state: State) -> Bool { self >= state }

        /// Whether `lhs` comes before `rhs` in the order
        /// `destroyed < initialized < created < started < resumed`.
        public static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The case name, as written in Swift.
        public var description: String {
            switch self {
            case .destroyed: "destroyed"
            case .initialized: "initialized"
            case .created: "created"
            case .started: "started"
            case .resumed: "resumed"
            }
        }
    }

    /// The current state. Setting it notifies every holder that has observers bound to this
    /// lifecycle, in the order they first registered one, before the setter returns.
    public var state: State {
        get { currentState }
        set { move(to: newValue) }
    }

    private var currentState: State = .initialized
    private var listeners = LifecycleListeners()

    /// Creates a lifecycle in the ``State-swift.enum/initialized`` state.
    nonisolated public init() {}

    private func move(to next: State) {
        let current = currentState
        guard next != current else { return }
        precondition(
            current != .destroyed,
            "Lifecycle: a destroyed lifecycle cannot move to .\(next); destroyed is final."
        )
        precondition(
            next != .initialized,
            "Lifecycle: cannot move from .\(current) back to .initialized; it is only the starting state."
        )
        currentState = next
        // Notify a snapshot: listeners added by a callback hear only later changes.
        for listener in listeners.snapshot() {
            // A later callback may have moved the state again: report only the newest.
            guard currentState == next else { break }
            listener.lifecycle(self, didChangeTo: next)
        }
        if next == .destroyed { listeners.removeAll() }
    }

    /// Registers `listener` for state changes; adding the same listener twice keeps one entry.
    func addListener(_ listener: any LifecycleListener) {
        listeners.add(listener)
    }
}
