import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

/// Real-time events per user: a private channel's changes reach its members' streams and never
/// another user's; joining and leaving change what a stream receives from then on.
///
/// Each test ends with a change everyone may see (a follow) and waits for it on every stream, so
/// that what a stream has not received by then, it never will: events arrive in sequence order.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct AuthorizationEventsTests {
    /// Makes a change every stream receives, and waits until each of `logs` has it.
    func fence(_ fixture: ServerFixture, _ logs: [EventLog]) async throws {
        let result = try await fixture.server.perform(.updateUser(displayName: nil, about: "fence", avatarURL: nil), as: "tim")
        for log in logs { try await log.waitForSequence(result.sequence) }
    }

    /// Whether an event is about the channel `channelId` or one of its records.
    static func touches(_ event: SocialEvent, channel channelId: String) -> Bool {
        switch event {
        case .created(let record, _), .updated(let record, _):
            switch record {
            case .channel(let channel): channel.id == channelId
            case .message(let message): message.channelId == channelId
            case .channelMember(let member): member.channelId == channelId
            default: false
            }
        case .deleted(let key, _): key.id.hasPrefix(channelId + ":")
        case .connected, .disconnected: false
        }
    }

    static func isRemoval(_ event: SocialEvent, of key: SocialRecordKey) -> Bool {
        if case .deleted(key, _) = event { return true }
        return false
    }

    @Test func aPrivateChannelsEventsReachItsMembersOnly() async throws {
        let fixture = try await ServerFixture.seeded()
        let ada = EventLog(fixture.connection("ada"))
        let alan = EventLog(fixture.connection("alan"))
        let grace = EventLog(fixture.connection("grace"))
        let tim = EventLog(fixture.connection("tim"))

        let sent = try await fixture.connection("ada").perform(.sendText("secret", channelId: "ada-alan", clientRequestId: "a1"))
        let secretId = try #require(sent.first(Message.self)?.id)
        try await fixture.server.perform(.addReaction(targetType: .message, targetId: secretId, name: "like"), as: "alan")
        try await fixture.server.perform(.removeReaction(targetType: .message, targetId: secretId, name: "like"), as: "alan")
        try await fixture.server.perform(.editMessage(id: secretId, text: "secret, edited"), as: "ada")
        try await fixture.server.perform(.leaveChannel(id: "ada-alan"), as: "alan")
        try await fence(fixture, [ada, alan, grace, tim])

        for member in [ada, alan] {
            let messages = member.changes.compactMap { event -> String? in
                if case .created(.message(let message), _) = event { return message.text }
                return nil
            }
            #expect(messages == ["secret"])
            #expect(member.changes.contains { Self.isRemoval($0, of: SocialRecordKey(.channelMember, "ada-alan:alan")) })
            #expect(member.changes.contains { if case .updated(.message(let message), _) = $0 { message.text == "secret, edited" } else { false } })
            #expect(member.changes.contains { if case .deleted(let key, _) = $0 { key.kind == .reaction } else { false } })
        }
        for outsider in [grace, tim] {
            #expect(!outsider.changes.contains { Self.touches($0, channel: "ada-alan") })
            #expect(!outsider.changes.contains { $0.key?.id == secretId })
            #expect(!outsider.changes.contains { $0.key?.kind == .reaction })
        }
    }

    @Test func aPublicChannelsMessagesReachMembersAndJoiningOpensThem() async throws {
        let fixture = try await ServerFixture.seeded()
        let ada = EventLog(fixture.connection("ada"))
        let tim = EventLog(fixture.connection("tim"))

        try await fixture.server.perform(.sendText("before", channelId: "random", clientRequestId: "a1"), as: "alan")
        try await fixture.connection("tim").perform(.joinChannel(id: "random"))
        try await fixture.server.perform(.sendText("while", channelId: "random", clientRequestId: "a2"), as: "alan")
        try await fixture.connection("tim").perform(.leaveChannel(id: "random"))
        try await fixture.server.perform(.sendText("after", channelId: "random", clientRequestId: "a3"), as: "alan")
        try await fence(fixture, [ada, tim])

        func texts(_ log: EventLog) -> [String] {
            log.changes.compactMap { event in
                if case .created(.message(let message), _) = event { return message.text }
                return nil
            }
        }
        #expect(texts(ada) == ["before", "while", "after"])
        #expect(texts(tim) == ["while"])
        // The public channel itself, and its members, are everyone's to see.
        #expect(tim.changes.contains { $0.key == SocialRecordKey(.channelMember, "random:tim") })
        #expect(tim.changes.contains { if case .updated(.channel(let channel), _) = $0 { channel.id == "random" } else { false } })
    }

    @Test func aLeaverHearsOfTheirOwnDepartureAndNothingOfThePrivateChannelAfter() async throws {
        let fixture = try await ServerFixture.seeded()
        let alan = EventLog(fixture.connection("alan"))
        let ada = EventLog(fixture.connection("ada"))
        try await fixture.server.perform(.sendText("before", channelId: "ada-alan", clientRequestId: "a1"), as: "ada")
        let left = try await fixture.connection("alan").perform(.leaveChannel(id: "ada-alan"))
        try await fixture.server.perform(.sendText("after", channelId: "ada-alan", clientRequestId: "a2"), as: "ada")
        try await fence(fixture, [alan, ada])

        #expect(alan.changes.contains { if case .created(.message(let message), _) = $0 { message.text == "before" } else { false } })
        #expect(alan.changes.contains { Self.isRemoval($0, of: SocialRecordKey(.channelMember, "ada-alan:alan")) })
        let afterLeaving = alan.changes.filter { ($0.sequence ?? 0) > left.sequence }
        #expect(!afterLeaving.contains { Self.touches($0, channel: "ada-alan") })
        // The channel's update for his leaving (its member count) is not his either.
        #expect(!alan.changes.contains { if case .updated(.channel(let channel), _) = $0 { channel.memberCount == 1 } else { false } })
        #expect(ada.changes.contains { if case .created(.message(let message), _) = $0 { message.text == "after" } else { false } })
        #expect(try await fixture.connection("alan").fetch(Channel.self, id: "ada-alan") == nil)
    }

    @Test func anotherServerOnTheFileFiltersTheEventsItPublishesAlike() async throws {
        let file = try SharedServerFile()
        let (first, second) = try await file.seededPair()
        let ada = EventLog(second.connection(userId: "ada"))
        let grace = EventLog(second.connection(userId: "grace"))
        try await first.perform(.sendText("secret", channelId: "ada-alan", clientRequestId: "a1"), as: "ada")
        try await first.perform(.leaveChannel(id: "ada-alan"), as: "alan")
        let fence = try await first.perform(.updateUser(displayName: nil, about: "fence", avatarURL: nil), as: "tim")
        try await second.publishExternalChanges()
        try await grace.waitForSequence(fence.sequence)
        try await ada.waitForSequence(fence.sequence)

        #expect(ada.changes.contains { if case .created(.message(let message), _) = $0 { message.text == "secret" } else { false } })
        #expect(ada.changes.contains { Self.isRemoval($0, of: SocialRecordKey(.channelMember, "ada-alan:alan")) })
        #expect(!grace.changes.isEmpty)
        #expect(!grace.changes.contains { Self.touches($0, channel: "ada-alan") })
    }
}
