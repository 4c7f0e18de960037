import Foundation

/// A closure that receives the values of a ``LiveData``, kept as an object so that it can be
/// registered later and removed by identity.
///
/// ``LiveData/observe(owner:_:)`` and ``LiveData/observeForever(_:)`` create one for you and
/// return it; create one yourself when observation starts later than the closure is written:
///
/// ```swift
/// let observer: Observer<String?> = Observer(update: { name in label.text = name })
/// // … later
/// viewModel.name.observe(owner: self, observer: observer)
/// ```
///
/// The `Value` of an observer of a `LiveData<T>` is `T?`: a holder may have no value yet.
/// A ``LiveData`` calls `update` on the main actor. One observer may be registered with several
/// holders, but with only one owner per holder.
public final class Observer<Value> {
    /// The closure called with each value delivered to this observer.
    public let update: (Value) -> Void

    // The registration with the observer's *home* holder (a ``LiveData`` or a ``LiveEvent``)
    // lives here, so that registering allocates nothing else and removing needs no lookup. Only
    // that holder's `ObserverRegistry` and the holder read and write these fields, on the main
    // actor. An observer registered with a second holder is represented there by a stand-in
    // observer that shares its closure.

    /// The `ObserverRegistry.identity` of the home holder; 0 while not registered directly
    /// anywhere.
    @exclusivity(unchecked) @usableFromInline var home = 0
    /// The owner; nil for `observeForever`.
    @exclusivity(unchecked) @usableFromInline var owner: OwnerReference?
    /// The index of this observer in its home holder's list.
    @exclusivity(unchecked) @usableFromInline var slot = 0
    /// The version last delivered, or the mark below which nothing is delivered: `Int.max`
    /// while being registered (a value set by `onActive()` is not delivered), then the holder's
    /// version at registration; an explicit `dispatch` lowers it to `-1` while `hasReceived`
    /// is false. For a ``LiveEvent``: the number of events sent before it registered (it
    /// receives only events numbered above it).
    @exclusivity(unchecked) @usableFromInline var lastVersion = 0
    /// Whether the observer currently receives values.
    @exclusivity(unchecked) @usableFromInline var isActive = false
    /// Whether anything has been delivered to this observer by its home holder (a ``LiveData``).
    @exclusivity(unchecked) @usableFromInline var hasReceived = false

    /// Creates an observer that runs `update` for each value delivered to it.
    @inlinable
    public init(update: @escaping (Value) -> Void) {
        self.update = update
    }
}

/// The identities of holders, one for each observer registry made (one per ``LiveData`` and per
/// ``LiveEvent``).
///
/// An observer names its home holder by this number rather than by a reference: comparing two
/// integers needs no reference counting, and a number is never handed out twice, so a holder
/// deallocated while its observers live on cannot be mistaken for a new one at the same address.
/// Holders are made on any thread, so the counter is behind a lock.
@usableFromInline
enum HolderIdentity {
    private static let last = LockedState(0)

    /// A number no holder has had: 1, 2, 3, ...
    @usableFromInline
    static func next() -> Int {
        last.withLock { last in
            last += 1
            return last
        }
    }
}
