/// An object with a ``Lifecycle``: the owner that ``LiveData/observe(owner:_:)`` binds observers to.
///
/// Conform a view or screen and move its lifecycle from its own callbacks:
///
/// ```swift
/// final class ProfileView: LifecycleOwner {
///     let lifecycle = Lifecycle()
///     func didAppear() { lifecycle.state = .resumed }
///     func didDisappear() { lifecycle.state = .created }
///     func close() { lifecycle.state = .destroyed }
/// }
/// ```
///
/// Observers bound to a lifecycle owner are active only while its state is
/// ``Lifecycle/State-swift.enum/started`` or ``Lifecycle/State-swift.enum/resumed``, and are
/// removed when it becomes ``Lifecycle/State-swift.enum/destroyed``. Any other object can be an
/// owner too: it is active for as long as it lives. Either way the owner is held weakly.
@MainActor
public protocol LifecycleOwner: AnyObject {
    /// The owner's lifecycle. Return the same object every time.
    var lifecycle: Lifecycle { get }
}
