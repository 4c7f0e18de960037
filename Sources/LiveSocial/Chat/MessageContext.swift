/// Why a ``MessageCollection`` reports messages: their sending status and where the change came from.
public struct MessageContext: Sendable, Hashable {
    /// The sending status of every message in the report.
    public var sendingStatus: SendingStatus
    /// Where the change came from.
    public var source: MessageEventSource

    /// Creates a context.
    public init(sendingStatus: SendingStatus, source: MessageEventSource) {
        self.sendingStatus = sendingStatus
        self.source = source
    }
}
