import Foundation
import LiveRepository
import LiveSocial
import LiveSocialWire
import Testing

@Suite struct SocialRecordWireTests {
    @Test func everyRecordKindRoundTrips() throws {
        #expect(Set(WireSamples.records.map(\.kind)) == Set(SocialRecordKind.allCases))
        for record in WireSamples.records {
            #expect(try roundTrip(record) == record)
        }
    }

    @Test func everyModelRoundTripsOnItsOwn() throws {
        #expect(try roundTrip(WireSamples.user) == WireSamples.user)
        #expect(try roundTrip(WireSamples.post) == WireSamples.post)
        #expect(try roundTrip(WireSamples.comment) == WireSamples.comment)
        #expect(try roundTrip(WireSamples.reaction) == WireSamples.reaction)
        #expect(try roundTrip(WireSamples.follow) == WireSamples.follow)
        #expect(try roundTrip(WireSamples.channel) == WireSamples.channel)
        #expect(try roundTrip(WireSamples.message) == WireSamples.message)
        #expect(try roundTrip(WireSamples.channelMember) == WireSamples.channelMember)
        #expect(try roundTrip(WireSamples.community) == WireSamples.community)
        #expect(try roundTrip(WireSamples.communityMember) == WireSamples.communityMember)
    }

    @Test func aRecordNamesItsKindAndWritesMissingOptionalsAsNull() throws {
        let object = try jsonObject(WireSamples.emptyChannel)
        #expect(object["kind"] as? String == "channel")
        #expect(object["lastMessageText"] is NSNull)
        #expect(object["syncState"] == nil)
    }

    @Test func theLocalSyncStateIsNotSentAndReadsAsSynced() throws {
        var pending = WireSamples.plainMessage
        pending.syncState = .syncing
        let read = try roundTrip(pending)
        #expect(read.syncState == .synced)
        #expect(read == WireSamples.plainMessage)
    }

    @Test func aMessageWithoutExtrasReadsWithEmptyOnes() throws {
        let json = """
            {"kind":"message","id":"m","clientRequestId":"r","channelId":"c","userId":"u","type":"text","text":"t",
             "reactionCount":0,"createdAt":1,"updatedAt":1,"isDeleted":false}
            """
        let message = try SocialWire.decode(Message.self, from: Data(json.utf8))
        #expect(message.metaArrays.isEmpty)
        #expect(message.reactions.isEmpty)
        #expect(message.parentId == nil && message.editedAt == nil)
    }

    @Test func aRecordOfAnotherKindIsRefusedByName() {
        let json = #"{"kind":"user","id":"p","authorId":"a","targetType":"user","targetId":"a","text":"","commentCount":0,"# +
            #""reactionCount":0,"createdAt":0,"updatedAt":0,"isDeleted":false}"#
        #expect(decodingMessage(Post.self, json) == #"at "kind": expected a record of kind "post", found "user""#)
    }

    @Test func anUnknownKindListsTheKnownOnes() throws {
        let message = try #require(decodingMessage(SocialRecord.self, #"{"kind":"photo","id":"x"}"#))
        #expect(message.hasPrefix(#"at "kind": unknown value "photo" (expected one of: user, post, comment"#))
    }

    @Test func aBadEnumValueInsideARecordIsNamedWithItsPath() {
        let json = #"{"kind":"channel","id":"c","displayName":"C","type":"podcast","memberCount":0,"messageCount":0,"# +
            #""lastActivityAt":0,"createdAt":0,"updatedAt":0,"isDeleted":false}"#
        #expect(decodingMessage(SocialRecord.self, json) == #"at "type": unknown value "podcast" (expected one of: community, live, conversation)"#)
    }

    @Test func aMissingFieldIsNamed() {
        #expect(decodingMessage(User.self, #"{"kind":"user","id":"u"}"#) == #"missing field "displayName""#)
    }

    @Test func aWrongTypeIsNamedWithItsPath() {
        let json = #"{"kind":"follow","id":"f","followerId":"a","followeeId":"b","status":"accepted","createdAt":"yesterday"}"#
        #expect(decodingMessage(SocialRecord.self, json) == #"at "createdAt": expected a number"#)
    }
}
