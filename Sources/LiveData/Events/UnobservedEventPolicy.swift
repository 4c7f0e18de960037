/// What a ``LiveEvent`` does with an event that reaches no observer, because none was active
/// when its turn came.
///
/// ```swift
/// private let navigation = MutableLiveEvent<Route>(whenUnobserved: .keep)
/// ```
public enum UnobservedEventPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Forget it: an event reaches only the observers active when it is sent, as ETBinding's
    /// `FutureEvent` does. Nothing is ever stored.
    case drop
    /// Keep it, after any event kept before it, until an observer becomes active; that observer
    /// alone then receives every kept event, in the order they were sent, once. The cure for
    /// Android's `SingleLiveEvent` problem: a notice sent while the screen is hidden is shown
    /// when it comes back, and never again after that.
    ///
    /// All of them are kept, not only the latest: an event is something that happened, and
    /// dropping one silently is what events are meant to avoid; an observer that shows only the
    /// latest still can, as all of them arrive at once. The kept events take memory until an
    /// observer comes, so keep events only where one will.
    case keep

    /// The case name, as written in Swift.
    public var description: String {
        switch self {
        case .drop: "drop"
        case .keep: "keep"
        }
    }
}
