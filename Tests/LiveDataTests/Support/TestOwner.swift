import LiveData

/// A lifecycle owner for tests: a stand-in for a view whose state the test moves by hand.
@MainActor
final class TestOwner: LifecycleOwner {
    let lifecycle = Lifecycle()

    /// Creates an owner already in `state` (moving through no other state).
    init(_ state: Lifecycle.State = .resumed) {
        if state != .initialized { lifecycle.state = state }
    }

    var state: Lifecycle.State {
        get { lifecycle.state }
        set { lifecycle.state = newValue }
    }
}

/// A plain object owner: active for as long as it lives.
final class PlainOwner {}

/// Reports its own deallocation, to prove that something was released.
final class DeallocationProbe {
    private let onDeinit: () -> Void
    init(onDeinit: @escaping () -> Void = {}) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}
