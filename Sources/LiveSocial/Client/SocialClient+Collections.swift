extension SocialClient {
    /// A collection of a channel's messages for a chat view, opened at `startingPoint`.
    ///
    /// - Parameters:
    ///   - channelId: the channel.
    ///   - startingPoint: the time to open at, in seconds since 1970: `.infinity` (the default) or
    ///     the current time opens at the newest messages; the time the user last read opens where
    ///     they left off. Opened at the current time, the collection knows it is at the newest
    ///     messages (``MessageCollection/hasNext`` false) once the server answers; opened at
    ///     `.infinity`, from the cached result on.
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

extension SocialClient {
    /// The channel list, most recently active first, kept current by real-time events and by a
    /// change-log catch-up whenever the connection comes back. Load its first page with
    /// ``ChannelCollection/loadMore()``.
    ///
    /// - Parameters:
    ///   - types: the channel types to list, or nil (the default) for every type.
    ///   - pageSize: how many channels a page adds; 20 by default.
    public func createChannelCollection(types: Set<ChannelType>? = nil, pageSize: Int = 20) -> ChannelCollection {
        ChannelCollection(client: self, types: types, pageSize: pageSize)
    }
}
