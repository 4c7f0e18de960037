extension SocialClient {
    /// A collection of a channel's messages for a chat view, opened at `startingPoint`.
    ///
    /// - Parameters:
    ///   - channelId: the channel.
    ///   - startingPoint: the time to open at, in seconds since 1970: `.infinity` (the default) or
    ///     the current time opens at the newest messages; the time the user last read opens where
    ///     they left off.
    ///   - params: what to list and how.
    ///   - hugeGapThreshold: how many changed messages a catch-up may bring before the collection
    ///     reports a huge gap instead; 300 by default.
    /// - Returns: a collection to start with
    ///   ``MessageCollection/startCollection(initPolicy:cacheResultHandler:apiResultHandler:)``.
    public func createMessageCollection(
        channelId: String, startingPoint: Double = .infinity, params: MessageListParams = MessageListParams(),
        hugeGapThreshold: Int = 300
    ) -> MessageCollection {
        MessageCollection(
            client: self, channelId: channelId, startingPoint: startingPoint, params: params,
            hugeGapThreshold: hugeGapThreshold)
    }
}
