import Dispatch

/// A ``LiveEvent`` that can be sent: the sender a view model keeps private.
///
/// ```swift
/// @MainActor final class ChatViewModel {
///     private let noticeEvents = MutableLiveEvent<String>(whenUnobserved: .keep)
///     var notices: LiveEvent<String> { noticeEvents }
///
///     func sendFailed(_ reason: String) { noticeEvents.send("not sent: \(reason)") }
/// }
/// ```
///
/// Call ``send(_:)`` on the main actor to deliver at once; call ``postEvent(_:)`` from any thread
/// or task to hand an event to the main thread.
@MainActor
public final class MutableLiveEvent<Value>: LiveEvent<Value> {
    /// The events posted and not yet sent on the main thread.
    nonisolated private let posted = PendingEvents<Value>()

    /// Creates an event source.
    ///
    /// - Parameter policy: what to do with an event that reaches no observer: forget it
    ///   (``UnobservedEventPolicy/drop``, the default) or keep it for the first observer that
    ///   becomes active (``UnobservedEventPolicy/keep``).
    nonisolated public init(whenUnobserved policy: UnobservedEventPolicy = .drop) {
        super.init(policy: policy)
    }

    /// Delivers `event` to the active observers, in registration order, before returning; or,
    /// when called from inside an observer of this event, as soon as the event being delivered
    /// has reached every observer. An event that reaches nobody is dropped or kept, as
    /// ``LiveEvent/unobservedPolicy`` says.
    public func send(_ event: Value) {
        enqueue(event)
    }

    /// Hands `event` to the main thread, where it is sent as if by ``send(_:)``.
    ///
    /// Callable from any thread or task. Every posted event is sent, in the order posted: posts
    /// are never coalesced (unlike ``MutableLiveData/postValue(_:)``). An event sent on the main
    /// actor meanwhile is delivered first.
    nonisolated public func postEvent(_ event: sending Value) {
        guard posted.append(event) else { return }
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated { self.sendPosted() }
        }
    }

    private func sendPosted() {
        for event in posted.takeAll() { enqueue(event) }
    }
}
