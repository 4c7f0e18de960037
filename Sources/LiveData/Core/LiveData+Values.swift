import Dispatch

extension LiveData where Value: Sendable {
    /// The values of this holder as an asynchronous sequence: the current value first, if it has
    /// one, then each new one.
    ///
    /// ```swift
    /// for await name in viewModel.name.values { print(name ?? "–") }
    /// ```
    ///
    /// The sequence is conflated like Android's `asFlow()`: a consumer slower than the setter
    /// receives the newest value, not every one. Each access makes a new sequence with its own
    /// always-active observer (so the holder counts as active while it exists); the observation
    /// ends when the consuming task is cancelled or the sequence and its iterator are dropped
    /// (the observer is removed on the main queue right after). It never finishes by itself: a
    /// `for await` loop over it runs until its task is cancelled.
    public var values: AsyncStream<Value?> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value?.self, bufferingPolicy: .bufferingNewest(1))
        let observer = observeForever { value in continuation.yield(value) }
        let subscription = ValuesSubscription(holder: self, observer: observer)
        continuation.onTermination = { _ in
            // Called on the thread that cancelled or dropped the sequence: hop to the main queue,
            // which serves the main actor, in FIFO order.
            DispatchQueue.main.async {
                MainActor.assumeIsolated { subscription.cancel() }
            }
        }
        dispatch(initiator: observer)
        return stream
    }
}

/// Removes the observer of one ``LiveData/values`` sequence when that sequence ends.
@MainActor
private final class ValuesSubscription<Value> {
    private weak var holder: LiveData<Value>?
    private var observer: Observer<Value?>?

    init(holder: LiveData<Value>, observer: Observer<Value?>) {
        self.holder = holder
        self.observer = observer
    }

    func cancel() {
        guard let observer else { return }
        self.observer = nil
        holder?.remove(observer: observer)
    }
}
