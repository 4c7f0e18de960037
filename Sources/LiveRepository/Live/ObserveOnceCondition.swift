/// Which delivery an `observeOnce` block waits for.
///
/// The seed's behaviour is the default: with cached data, the single call comes at once with
/// that local, possibly stale data. Wait for ``fresh`` to get the server's answer instead.
public enum ObserveOnceCondition: Sendable, Hashable {
    /// The first delivery, whatever its data status: local data when the cache has it.
    case firstDelivery
    /// The first delivery with fresh data from the server, or the first that carries an error
    /// (so a failing server still ends the wait, once).
    case fresh
}
