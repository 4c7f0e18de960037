import Foundation

/// The settings of a ``NetworkSocialAPI``: timeouts, heartbeats, reconnection and renewal.
public struct NetworkConfiguration: Sendable {
    /// How long a request may take before it fails as offline, in seconds (10 by default, as
    /// Sendbird's SDK does).
    public var requestTimeout: Double
    /// How often the server sends a heartbeat on the event stream, in seconds (the server's
    /// setting; 15 by default).
    public var heartbeatInterval: Double
    /// How many heartbeat intervals the stream may stay silent before it counts as dropped (2 by default).
    public var missedHeartbeats: Int
    /// The waits before reconnections.
    public var backoff: ReconnectionBackoff
    /// How long before a session expires to renew it, in seconds (60 by default; a session
    /// shorter than twice this renews at half its life).
    public var renewalLeadTime: Double
    /// How many times a request is sent again after its connection was lost before the answer
    /// came (1 by default). A mutation is sent again with the same idempotency key, so the server
    /// stores it once.
    public var retriesAfterLostConnection: Int
    /// The time the transport reads and sleeps on.
    public var clock: any NetworkClock
    /// The seed of the reconnection jitter; nil draws one from the system's generator.
    public var randomSeed: UInt64?

    /// Creates a configuration; see the properties for what each value means.
    public init(
        requestTimeout: Double = 10, heartbeatInterval: Double = 15, missedHeartbeats: Int = 2,
        backoff: ReconnectionBackoff = ReconnectionBackoff(), renewalLeadTime: Double = 60, retriesAfterLostConnection: Int = 1,
        clock: any NetworkClock = SystemNetworkClock(), randomSeed: UInt64? = nil
    ) {
        precondition(requestTimeout > 0 && heartbeatInterval > 0 && missedHeartbeats > 0, "timeouts are positive")
        self.requestTimeout = requestTimeout
        self.heartbeatInterval = heartbeatInterval
        self.missedHeartbeats = missedHeartbeats
        self.backoff = backoff
        self.renewalLeadTime = renewalLeadTime
        self.retriesAfterLostConnection = max(0, retriesAfterLostConnection)
        self.clock = clock
        self.randomSeed = randomSeed
    }

    /// How long the event stream may stay silent before it counts as dropped, in seconds.
    public var silenceLimit: Double { heartbeatInterval * Double(missedHeartbeats) }
}
