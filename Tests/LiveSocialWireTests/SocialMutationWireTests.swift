import Foundation
import LiveSocial
import LiveSocialWire
import Testing

@Suite struct SocialMutationWireTests {
    @Test func everyMutationRoundTrips() throws {
        #expect(Set(WireSamples.mutations.map(\.wireName)) == Set(SocialMutation.wireNames))
        for mutation in WireSamples.mutations {
            #expect(try roundTrip(mutation) == mutation)
        }
    }

    @Test func theBodyRoundTrips() throws {
        for mutation in WireSamples.mutations {
            #expect(try roundTripBody(MutationRequest(mutation: mutation)).mutation == mutation)
        }
    }

    @Test func onlyASentMessageHasAClientRequestId() {
        #expect(SocialMutation.sendText("hi", channelId: "g", clientRequestId: "r9").clientRequestId == "r9")
        #expect(SocialMutation.editMessage(id: "m", text: "t").clientRequestId == nil)
    }

    @Test func optionalParametersMayBeLeftOut() throws {
        let json = #"{"kind":"sendMessage","channelId":"g","clientRequestId":"r","type":"text","text":"hi"}"#
        #expect(try SocialWire.decode(SocialMutation.self, from: Data(json.utf8)) == .sendText("hi", channelId: "g", clientRequestId: "r"))
        #expect(
            try SocialWire.decode(SocialMutation.self, from: Data(#"{"kind":"updateUser"}"#.utf8))
                == .updateUser(displayName: nil, about: nil, avatarURL: nil))
    }

    @Test func anUnknownKindListsTheKnownOnes() throws {
        let message = try #require(decodingMessage(SocialMutation.self, #"{"kind":"deleteUser","id":"a"}"#))
        #expect(message.hasPrefix(#"at "kind": unknown mutation kind "deleteUser" (expected one of: createPost,"#))
    }

    @Test func aMissingParameterIsNamedWithItsPathInTheBody() throws {
        let data = Data(#"{"mutation":{"kind":"editMessage","id":"m"}}"#.utf8)
        #expect(throws: WireDecodingError(message: #"at "mutation": missing field "text""#)) {
            try SocialWire.decode(MutationRequest.self, from: data)
        }
    }

    @Test func aWrongTypeIsNamedWithItsPathInTheBody() throws {
        let data = Data(#"{"mutation":{"kind":"follow","userId":42}}"#.utf8)
        #expect(throws: WireDecodingError(message: #"at "mutation.userId": expected a string"#)) {
            try SocialWire.decode(MutationRequest.self, from: data)
        }
    }
}

@Suite struct SocialMutationTargetTests {
    @Test func everyMutationButAProfileChangeNamesItsTarget() {
        for mutation in WireSamples.mutations {
            if case .updateUser = mutation {
                #expect(mutation.targetKey == nil)
            } else {
                #expect(mutation.targetKey != nil, "\(mutation.wireName)")
            }
        }
        #expect(SocialMutation.addReaction(targetType: .comment, targetId: "k", name: "x").targetKey == SocialRecordKey(.comment, "k"))
        #expect(SocialMutation.createPost(targetType: .user, targetId: "ada", text: "").targetKey == SocialRecordKey(.user, "ada"))
        #expect(SocialMutation.sendText("t", channelId: "g", clientRequestId: "r").targetKey == SocialRecordKey(.channel, "g"))
    }
}
