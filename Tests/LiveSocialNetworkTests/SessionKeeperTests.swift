import Foundation
import LiveSocial
import LiveSocialWire
@testable import LiveSocialNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signing in, renewing and signing out, through the API on a fake HTTP layer.
@Suite struct SessionKeeperTests {
    @Test @MainActor func signingInPostsTheCredentialsAndUsesTheToken() async throws {
        let http = FakeHTTP { request in
            if request.url.path == WireRoute.sessions {
                return .json(SessionBody(token: "abc", userId: "alan", expiresAt: 1_900_000_000))
            }
            return .json(SequenceBody(latestSequence: 7))
        }
        let api = try await NetworkSocialAPI.signIn(
            server: Harness.server, userId: "alan", password: "pw", configuration: NetworkConfiguration(clock: ManualNetworkClock()),
            transport: http)
        let signIn = try #require(http.requests.first)
        #expect(signIn.method == "POST" && signIn.bearer == nil)
        #expect(try SocialWire.decode(SignInRequest.self, from: signIn.body ?? Data()) == SignInRequest(userId: "alan", password: "pw"))
        #expect(api.userId == "alan")
        #expect(try await api.latestSequence() == 7)
        #expect(http.requests(to: WireRoute.sequence).last?.bearer == "abc")
        await api.signOut()
    }

    @Test @MainActor func aWrongPasswordSaysSo() async {
        let http = FakeHTTP { _ in .error(.unauthorized, "wrong credentials") }
        await #expect(throws: SocialAPIError.rejected("wrong user id or password")) {
            try await NetworkSocialAPI.signIn(server: Harness.server, userId: "alan", password: "no", configuration: NetworkConfiguration(), transport: http)
        }
    }

    @Test @MainActor func anUnreachableServerIsOffline() async {
        let http = FakeHTTP { _ in throw URLError(.cannotConnectToHost) }
        await #expect(throws: SocialAPIError.offline) {
            try await NetworkSocialAPI.signIn(server: Harness.server, userId: "alan", password: "pw", configuration: NetworkConfiguration(), transport: http)
        }
    }

    @Test @MainActor func aRefusedTokenIsRenewedOnceAndTheRequestSentAgain() async throws {
        let harness = Harness { request in
            switch (request.url.path, request.bearer) {
            case (WireRoute.renewSession, "t0"): renewed("t1", expiresAt: Date(timeIntervalSince1970: 1_900_000_000))
            case (WireRoute.sequence, "t1"): .json(SequenceBody(latestSequence: 3))
            default: .error(.unauthorized, "expired")
            }
        }
        #expect(try await harness.api.latestSequence() == 3)
        #expect(harness.http.requests(to: WireRoute.sequence).map(\.bearer) == ["t0", "t1"])
        #expect(harness.http.requests(to: WireRoute.renewSession).map(\.bearer) == ["t0"])
        #expect(await harness.api.session?.token == "t1")
        await harness.api.signOut()
    }

    @Test @MainActor func aRefusedRenewalSignsOutForGood() async throws {
        let harness = Harness { request in
            request.url.path == WireRoute.renewSession ? .error(.unauthorized, "revoked") : .error(.unauthorized, "expired")
        }
        var events = harness.api.events().makeAsyncIterator()
        #expect(await events.next() == .disconnected)
        await #expect(throws: SocialAPIError.rejected("signed out: the server refused to renew the session (revoked)")) {
            try await harness.api.latestSequence()
        }
        let state = await harness.waitForState { if case .signedOut = $0 { true } else { false } }
        #expect(state == .signedOut(reason: "the server refused to renew the session (revoked)"))
        #expect(await events.next() == nil)
        let sent = harness.http.requests.count
        await #expect(throws: SocialAPIError.rejected("signed out: the server refused to renew the session (revoked)")) {
            try await harness.api.perform(.follow(userId: "ada"))
        }
        #expect(harness.http.requests.count == sent)
        #expect(await harness.api.session == nil)
    }

    @Test @MainActor func aTokenRefusedAgainAfterItsRenewalSignsOut() async throws {
        let harness = Harness { request in
            request.url.path == WireRoute.renewSession
                ? renewed("t1", expiresAt: Date(timeIntervalSince1970: 1_900_000_000)) : .error(.unauthorized, "no")
        }
        await #expect(throws: SocialAPIError.rejected("signed out: the server refused the renewed session")) {
            try await harness.api.latestSequence()
        }
        #expect(harness.api.currentConnectionState == .signedOut(reason: "the server refused the renewed session"))
        #expect(harness.http.requests(to: WireRoute.sessions).last?.method == "DELETE")
    }

    @Test @MainActor func theSessionIsRenewedAheadOfItsExpiry() async throws {
        let harness = Harness(lifetime: 600) { request in
            request.url.path == WireRoute.renewSession
                ? renewed("t1", expiresAt: Date(timeIntervalSince1970: 1_900_000_000)) : .error(.serverFailure, "unused")
        }
        let start = harness.clock.now
        // The renewal timer and the event stream's heartbeat watchdog sleep.
        await harness.clock.waitForSleepers(2)
        #expect(harness.clock.deadlines.contains(start.addingTimeInterval(540)))
        harness.clock.advance(by: 539)
        #expect(harness.http.requests(to: WireRoute.renewSession).isEmpty)
        harness.clock.advance(by: 1)
        let renewal = await harness.http.waitForRequests(1)
        #expect(renewal.url.path == WireRoute.renewSession && renewal.bearer == "t0")
        await harness.api.keeper.waitForRenewal()
        #expect(await harness.api.session?.token == "t1")
        await harness.api.signOut()
    }

    @Test @MainActor func anUnreachableServerAtRenewalIsAskedAgainAfterTheBackoff() async throws {
        let harness = Harness(lifetime: 100) { request in
            guard request.url.path == WireRoute.renewSession else { return .error(.serverFailure, "unused") }
            throw URLError(.cannotConnectToHost)
        }
        let start = harness.clock.now
        await harness.clock.waitForSleepers(2)
        // A 100 s session renews at half its life.
        #expect(harness.clock.deadlines.contains(start.addingTimeInterval(50)))
        harness.clock.advance(by: 50)
        _ = await harness.http.waitForRequests(1)
        await harness.clock.waitForSleepers(2)
        #expect(harness.clock.deadlines.contains(start.addingTimeInterval(51)))
        harness.clock.advance(by: 1)
        _ = await harness.http.waitForRequests(2)
        #expect(harness.http.requests(to: WireRoute.renewSession).count == 2)
        #expect(await harness.api.session?.token == "t0")
        await harness.api.signOut()
    }

    @Test @MainActor func signingOutRevokesTheTokenAndEndsTheStreams() async throws {
        let harness = Harness { _ in HTTPResponse(status: 204) }
        var events = harness.api.events().makeAsyncIterator()
        #expect(await events.next() == .disconnected)
        await harness.api.signOut()
        #expect(await events.next() == nil)
        #expect(harness.api.currentConnectionState == .signedOut(reason: "at the user's request"))
        let revoke = try #require(harness.http.requests(to: WireRoute.sessions).last)
        #expect(revoke.method == "DELETE" && revoke.bearer == "t0")
    }
}
