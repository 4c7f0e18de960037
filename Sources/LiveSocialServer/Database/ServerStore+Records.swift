import LiveRepository
import LiveSocial

extension ServerStore {
    /// The record with `key`, if stored.
    func load(_ key: SocialRecordKey) throws -> SocialRecord? {
        func open<Record: CacheRecord>(_ type: Record.Type) throws -> SocialRecord? {
            try load(type, id: key.id).flatMap { SocialRecord($0) }
        }
        return try open(key.kind.recordType)
    }

    /// Every record `query` lists (at most `limit`), in its order.
    func read<Record: CacheRecord>(
        _ query: CacheQuery<Record>, after position: StorePosition? = nil, limit: Int = Int(Int32.max)
    ) throws -> [Record] {
        try records(query, filter: nil, after: position, limit: limit).map(\.record)
    }

    /// The channel whose members may see `record` (``AccessRules``): the channel itself, a
    /// membership's or a message's channel, a message reaction's message's channel; nil for the others.
    func channelId(of record: SocialRecord) throws -> String? {
        switch record {
        case .channel(let channel): channel.id
        case .channelMember(let member): member.channelId
        case .message(let message): message.channelId
        case .reaction(let reaction) where reaction.targetType == .message:
            try load(Message.self, id: reaction.targetId)?.channelId
        default: nil
        }
    }
}
