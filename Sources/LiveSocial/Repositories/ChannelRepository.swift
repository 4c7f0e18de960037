import LiveRepository

/// Chat channels, and joining and leaving them.
///
/// Get it from ``SocialClient/channels``. It is a light view of the client, so there is no need to
/// keep one. Its changes show in the cache at once, then go to the server; they throw
/// ``SocialAPIError`` when the request fails, and the local change is then marked failed or undone.
@MainActor
public struct ChannelRepository {
    let client: SocialClient

    /// The channel with `id`, live.
    public func get(id: String) -> LiveObject<Channel> { client.liveObject(Channel.self, id: id) }

    /// Channels, most recently active first; only `types` ones when given.
    public func channels(types: Set<ChannelType>? = nil, includeDeleted: Bool = false, pageSize: Int = 20) -> LiveCollection<Channel> {
        client.liveCollection(.channels(types: types, includeDeleted: includeDeleted), pageSize: pageSize)
    }

    /// Joins a channel: the membership shows at once as `syncing`.
    public func join(_ channelId: String) async throws {
        let local = ChannelMember(id: ChannelMember.makeID(channelId: channelId, userId: client.userId),
                                  channelId: channelId, userId: client.userId, joinedAt: client.now())
        try await client.mutate(.joinChannel(id: channelId), local: local, syncState: \.syncState)
    }

    /// Leaves a channel: the membership is gone at once, back if the server refuses.
    public func leave(_ channelId: String) async throws {
        let id = ChannelMember.makeID(channelId: channelId, userId: client.userId)
        try await client.mutate(.leaveChannel(id: channelId), removingID: id, of: ChannelMember.self)
    }
}
