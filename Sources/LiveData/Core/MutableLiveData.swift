import Dispatch

/// A ``LiveData`` whose value can be set: the writer a view model keeps private.
///
/// ```swift
/// @MainActor final class ProfileViewModel {
///     private let nameData = MutableLiveData<String>()
///     var name: LiveData<String> { nameData }
///
///     func load() { nameData.data = "Ada" }   // delivered before the setter returns
/// }
/// ```
///
/// Set ``data`` on the main actor to deliver synchronously; call ``postValue(_:)`` from any
/// thread or task to hand a value to the main thread.
@MainActor
open class MutableLiveData<Value>: LiveData<Value> {
    /// The value posted last and not yet applied on the main thread.
    nonisolated private let pending = PendingValue<Value>()

    /// The current value. Setting it bumps the version and delivers the new value to the active
    /// observers, in registration order, before the setter returns (unless a delivery is already
    /// running, as when set from inside an observer: then that delivery starts over with the
    /// new value as soon as the current observer returns).
    final override public var data: Value? {
        @inlinable get { storedData }
        @inlinable set { setValue(newValue) }
    }

    /// Hands `value` to the main thread, where it is set as if by assigning ``data``.
    ///
    /// Callable from any thread or task. Posts that arrive before the main thread gets to them
    /// coalesce: only the last one is set and delivered (Android's rule). A value assigned to
    /// ``data`` on the main thread in the meantime is overwritten when the post is applied.
    nonisolated public func postValue(_ value: sending Value?) {
        guard pending.store(value) else { return }
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated { self.applyPostedValue() }
        }
    }

    private func applyPostedValue() {
        guard let value = pending.take() else { return }
        setValue(value.data)
    }
}
