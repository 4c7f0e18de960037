// What a holder tells its observer registry, and what the registry tells it back: the holder's
// side of `ObserverRegistry` (registration, removal, active states and lifecycles live there).

extension LiveData: ObserverRegistryHost {
    @usableFromInline static var holderName: String { "LiveData" }

    /// A new registration has received nothing: it starts from the current version.
    @inlinable
    final var registrationMark: Int { version }

    @usableFromInline
    final func registryDidBecomeActive() { onActive() }

    @usableFromInline
    final func registryDidBecomeInactive() { onInactive() }

    /// An observer whose lifecycle became active receives the latest value, if it has not.
    @usableFromInline
    final func registry(didActivate observer: Observer<Value?>) {
        dispatchValue(initiator: observer)
    }

    @usableFromInline
    func lifecycle(_ lifecycle: Lifecycle, didChangeTo _: Lifecycle.State) {
        registry.apply(lifecycle, host: self)
    }

    /// Lets go of the owners pinned by the delivery that just ended. Unpinning may deallocate an
    /// owner, whose deinit may use this holder again: popping one at a time keeps the list
    /// consistent for a nested delivery.
    @usableFromInline
    final func unpinOwners() {
        while let reference = pinnedOwners.popLast() { reference.pinned = nil }
    }
}
