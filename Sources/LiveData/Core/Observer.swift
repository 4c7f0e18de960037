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

    /// Creates an observer that runs `update` for each value delivered to it.
    public init(update: @escaping (Value) -> Void) {
        self.update = update
    }
}
