/// How a run goes.
struct RunSettings: Sendable {
    var clients: Int
    var pacedSends: Int
    var loadSeconds: Double
    var senders: Int
    /// Sends in flight at most during the load phase (sent, not yet at every client).
    var window: Int
    /// The most load-phase sends counted.
    var loadCapacity = 400_000
}
