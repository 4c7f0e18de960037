import LiveData

/// A holder that counts its `onActive()` / `onInactive()` calls, in order.
@MainActor
final class CountingLiveData<Value>: MutableLiveData<Value> {
    enum Event: Equatable { case active, inactive }
    private(set) var events: [Event] = []
    var onActiveHook: () -> Void = {}
    var onInactiveHook: () -> Void = {}

    override func onActive() {
        events.append(.active)
        onActiveHook()
    }

    override func onInactive() {
        events.append(.inactive)
        onInactiveHook()
    }
}
