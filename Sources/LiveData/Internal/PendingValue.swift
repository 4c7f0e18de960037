/// The value of the latest `postValue(_:)` waiting for the main thread.
///
/// `@unchecked Sendable`: `slot`'s lock guards the waiting value, which is not `Sendable`. Values
/// enter with `sending` (the poster gives up access) and leave only on the main actor, so no
/// value is ever shared between two threads.
final class PendingValue<Value>: @unchecked Sendable {
    /// A posted value; `data` may itself be nil (posting nil sets nil).
    struct Posted {
        var data: Value?
    }

    private let slot = LockedState<Posted?>(nil)

    /// Stores `value` in place of any waiting one.
    /// - Returns: Whether the slot was empty, that is, whether the caller must schedule a take.
    func store(_ value: sending Value?) -> Bool {
        slot.withLock { slot in
            let wasEmpty = slot == nil
            slot = Posted(data: value)
            return wasEmpty
        }
    }

    /// Removes and returns the waiting value, if any.
    func take() -> Posted? {
        slot.withLock { slot in
            let posted = slot
            slot = nil
            return posted
        }
    }
}
