import LiveData

/// The handle of one observation of a ``LiveObject`` or ``LiveCollection``.
///
/// Keep it for as long as you want the block called: the observation ends when you call
/// ``invalidate()`` or release the token, whichever comes first, and the block is never called
/// after either. Store it in the object whose lifetime matches the screen:
///
/// ```swift
/// final class PostScreen {
///     private var token: NotificationToken?
///     func show(_ client: SocialClient) {
///         token = client.posts.get(id: "post-4").observe { [weak self] post, error in
///             self?.render(post.snapshot)
///         }
///     }
/// }
/// ```
///
/// The token alone is enough: while it is valid it keeps the live object or collection it
/// observes, and with it the loading from the cache and the server and the real-time updates,
/// as if the caller held that object too. Invalidating or releasing the token lets it go; an
/// `observeOnce` token lets go after its one call, and a live object that nobody else holds is
/// deallocated then. Nothing the token keeps holds the token.
///
/// The block is kept too, so capture the object that holds the token weakly (or `unowned`), as
/// above: a block that holds it strongly makes a cycle (screen, token, live object, block,
/// screen), and the screen, its token and the live object are never freed, as with a Combine
/// `sink` whose closure holds the owner of its cancellable.
///
/// The token is the `LifecycleOwner` of the observation: its lifecycle is
/// `Lifecycle.State.resumed` while it observes and
/// `Lifecycle.State.destroyed` once invalidated, and the `LiveData` holders of the
/// live object hold it weakly, so the core's owner rules do the bookkeeping.
@MainActor
public final class NotificationToken: LifecycleOwner {
    /// The observation's lifecycle; ``invalidate()`` destroys it.
    public let lifecycle = Lifecycle()
    /// The live object or collection observed, kept while the observation is on.
    private var observed: AnyObject?

    init(keeping observed: AnyObject) {
        self.observed = observed
        lifecycle.state = .resumed
    }

    /// Whether the observation is still on: false after ``invalidate()``.
    public var isValid: Bool { lifecycle.state != .destroyed }

    /// Ends the observation: its block is not called again and is released, and so is the live
    /// object or collection, unless something else keeps it. Calling it again does nothing.
    public func invalidate() {
        lifecycle.state = .destroyed
        observed = nil
    }
}
