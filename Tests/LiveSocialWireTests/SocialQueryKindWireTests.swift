import Foundation
import LiveRepository
import LiveSocial
import LiveSocialWire
import Testing

@Suite struct SocialQueryKindWireTests {
    @Test func everyQueryKindRoundTrips() throws {
        #expect(Set(WireSamples.queryKinds.map(\.wireName)) == Set(SocialQueryKind.wireNames))
        for kind in WireSamples.queryKinds {
            #expect(try roundTrip(kind) == kind)
        }
    }

    @Test func setsAreWrittenSortedAndNilSetsAsNull() throws {
        let object = try jsonObject(
            SocialQueryKind.messages(channelId: "g", types: [.text, .image], senderIds: ["z", "a"], includeDeleted: false, newestFirst: true))
        #expect(object["types"] as? [String] == ["image", "text"])
        #expect(object["senderIds"] as? [String] == ["a", "z"])
        #expect(try jsonObject(SocialQueryKind.channels(types: nil, includeDeleted: false))["types"] is NSNull)
    }

    @Test func missingFlagsTakeTheFactoryDefaults() throws {
        let messages = try SocialWire.decode(SocialQueryKind.self, from: Data(#"{"kind":"messages","channelId":"g"}"#.utf8))
        #expect(messages == SocialQuery<Message>.messages(channelId: "g").kind)
        let comments = try SocialWire.decode(SocialQueryKind.self, from: Data(#"{"kind":"comments","postId":"p"}"#.utf8))
        #expect(comments == SocialQuery<LiveSocial.Comment>.comments(postId: "p").kind)
        let communities = try SocialWire.decode(SocialQueryKind.self, from: Data(#"{"kind":"communities"}"#.utf8))
        #expect(communities == SocialQuery<Community>.communities().kind)
    }

    @Test func theFullQueryIsTheFactorysQuery() throws {
        let query = try #require(SocialQuery<Message>.messages(channelId: "g", types: [.text], newestFirst: false).kind.query(of: Message.self))
        #expect(query == SocialQuery<Message>.messages(channelId: "g", types: [.text], newestFirst: false))
        for kind in WireSamples.queryKinds {
            #expect(rebuiltKind(kind, as: kind.recordKind.recordType) == kind)
        }
    }

    @Test func theFullQueryIsNilForAnotherModel() {
        #expect(SocialQueryKind.channels(types: nil, includeDeleted: false).query(of: Message.self) == nil)
    }

    @Test func theRecordKindIsTheModelListed() {
        #expect(SocialQueryKind.followers(userId: "a", status: nil).recordKind == .follow)
        #expect(SocialQueryKind.communityFeed(communityId: "c", includeDeleted: false).recordKind == .post)
    }

    @Test func anUnknownKindListsTheKnownOnes() throws {
        let message = try #require(decodingMessage(SocialQueryKind.self, #"{"kind":"feeds"}"#))
        #expect(message.hasPrefix(#"at "kind": unknown query kind "feeds" (expected one of: userFeed, postsByAuthor"#))
    }

    @Test func aBadFilterValueIsNamed() {
        #expect(
            decodingMessage(SocialQueryKind.self, #"{"kind":"channels","types":["live","radio"]}"#)
                == #"at "types": unknown value "radio" (expected one of: community, live, conversation)"#)
    }
}

/// The kind of the query `kind` rebuilds for `type`.
private func rebuiltKind<Record: CacheRecord>(_ kind: SocialQueryKind, as type: Record.Type) -> SocialQueryKind? {
    kind.query(of: type)?.kind
}
