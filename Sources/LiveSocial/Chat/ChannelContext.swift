/// Why a collection reports a channel change: where it came from.
public struct ChannelContext: Sendable, Hashable {
    /// Where the change came from.
    public var source: MessageEventSource

    /// Creates a context.
    public init(source: MessageEventSource) {
        self.source = source
    }
}
