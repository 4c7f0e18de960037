import LiveData

/// The handle of one observation of a ``LiveObject`` or ``LiveCollection``.
///
/// Keep it for as long as you want the block called: the observation ends when you call
/// ``invalidate()`` or release the token, whichever comes first, and the block is never called
/// after either. Store it in the object whose lifetime matches the screen:
///
/// ```swift
/// final class ChannelScreen {
///     private var token: NotificationToken?
///     func show() {
///         token = channel.observe { channel, error in self.render(channel.snapshot) }
///     }
/// }
/// ```
///
/// The token is the `LifecycleOwner` of the observation: its lifecycle is
/// `Lifecycle.State.resumed` while it observes and
/// `Lifecycle.State.destroyed` once invalidated, and the `LiveData` holders of the
/// live object hold it weakly, so the core's owner rules do the bookkeeping.
@MainActor
public final class NotificationToken: LifecycleOwner {
    /// The observation's lifecycle; ``invalidate()`` destroys it.
    public let lifecycle = Lifecycle()

    init() {
        lifecycle.state = .resumed
    }

    /// Whether the observation is still on: false after ``invalidate()``.
    public var isValid: Bool { lifecycle.state != .destroyed }

    /// Ends the observation: its block is not called again and is released. Calling it again
    /// does nothing.
    public func invalidate() {
        lifecycle.state = .destroyed
    }
}
