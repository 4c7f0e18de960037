/// One event of a Server-Sent Events stream, as ``ServerSentEventParser`` reads it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field; `message` when the event had none.
    public var type: String
    /// The `data:` lines, joined with line feeds.
    public var data: String
    /// The last `id:` seen on the stream up to this event (the stream's "last event id"), or nil.
    public var lastEventId: String?

    /// Creates an event.
    public init(type: String, data: String, lastEventId: String?) {
        self.type = type
        self.data = data
        self.lastEventId = lastEventId
    }
}
