import LiveRepository

extension SocialQuery where Record == Channel {
    /// Channels, most recently active first.
    ///
    /// - Parameters:
    ///   - types: the channel types to list, or nil for every type.
    ///   - includeDeleted: list deleted channels too; they are left out by default.
    public static func channels(types: Set<ChannelType>? = nil, includeDeleted: Bool = false) -> Self {
        Self(kind: .channels(types: types, includeDeleted: includeDeleted), cacheQuery: CacheQuery(
            oneOf("type", types) + notDeleted(includeDeleted),
            orderBy: "lastActivityAt", ascending: false))
    }
}

extension SocialQuery where Record == Message {
    /// Messages of a channel, newest first by default.
    ///
    /// - Parameters:
    ///   - channelId: the channel whose messages to list.
    ///   - types: the message types to list, or nil for every type.
    ///   - senderIds: list only these users' messages, or nil for everyone's.
    ///   - includeDeleted: list deleted messages too; they are left out by default.
    ///   - newestFirst: newest first when true (the default), oldest first when false.
    public static func messages(
        channelId: String, types: Set<MessageType>? = nil, senderIds: Set<String>? = nil,
        includeDeleted: Bool = false, newestFirst: Bool = true
    ) -> Self {
        var predicates: [CachePredicate] = [.equals("channelId", .text(channelId))]
        predicates += oneOf("type", types)
        if let senderIds { predicates.append(.oneOf("userId", senderIds.sorted().map(SQLiteValue.text))) }
        predicates += notDeleted(includeDeleted)
        return Self(
            kind: .messages(
                channelId: channelId, types: types, senderIds: senderIds,
                includeDeleted: includeDeleted, newestFirst: newestFirst),
            cacheQuery: CacheQuery(predicates, orderBy: "createdAt", ascending: !newestFirst))
    }
}

extension SocialQuery where Record == ChannelMember {
    /// Members of a channel, earliest joined first.
    ///
    /// - Parameters:
    ///   - channelId: the channel whose members to list.
    ///   - roles: the roles to list, or nil for every role.
    ///   - memberships: the membership states to list; members in good standing by default, nil for all.
    public static func channelMembers(
        channelId: String, roles: Set<MemberRole>? = nil, memberships: Set<Membership>? = [.member]
    ) -> Self {
        Self(kind: .channelMembers(channelId: channelId, roles: roles, memberships: memberships), cacheQuery: CacheQuery(
            [.equals("channelId", .text(channelId))] + oneOf("role", roles) + oneOf("membership", memberships),
            orderBy: "joinedAt", ascending: true))
    }
}

extension SocialQuery where Record == Community {
    /// Communities, alphabetically by default.
    ///
    /// - Parameters:
    ///   - publicOnly: list only public communities.
    ///   - includeDeleted: list deleted communities too; they are left out by default.
    ///   - order: alphabetically by display name (the default), or newest first.
    public static func communities(
        publicOnly: Bool = false, includeDeleted: Bool = false, sortedBy order: CommunitySortOrder = .displayName
    ) -> Self {
        let predicates: [CachePredicate] = (publicOnly ? [.equals("isPublic", .bool(true))] : []) + notDeleted(includeDeleted)
        let cacheQuery = switch order {
        case .displayName: CacheQuery<Community>(predicates, orderBy: "displayName", ascending: true)
        case .newestFirst: CacheQuery<Community>(predicates, orderBy: "createdAt", ascending: false)
        }
        return Self(kind: .communities(publicOnly: publicOnly, includeDeleted: includeDeleted, sortedBy: order), cacheQuery: cacheQuery)
    }
}

extension SocialQuery where Record == CommunityMember {
    /// Members of a community, earliest joined first.
    ///
    /// - Parameters:
    ///   - communityId: the community whose members to list.
    ///   - roles: the roles to list, or nil for every role.
    public static func communityMembers(communityId: String, roles: Set<MemberRole>? = nil) -> Self {
        Self(kind: .communityMembers(communityId: communityId, roles: roles), cacheQuery: CacheQuery(
            [.equals("communityId", .text(communityId))] + oneOf("role", roles),
            orderBy: "joinedAt", ascending: true))
    }
}
