/// A weak reference to an object, for tests that check something was deallocated.
@MainActor
public final class WeakBox<Object: AnyObject> {
    /// The object, or nil once it is deallocated.
    public private(set) weak var value: Object?

    /// Refers to `object` without keeping it.
    public init(_ object: Object) { value = object }
}
