import Foundation
import LiveSocialNetwork
import Testing

@Suite struct ConnectionStateTests {
    @Test func theSummaryCountsTheSecondsToTheNextTry() {
        let now = Date(timeIntervalSince1970: 1000)
        #expect(ConnectionState.reconnecting(attempt: 2, nextTry: now.addingTimeInterval(2.2)).summary(now: now) == "reconnecting in 3 s")
        #expect(ConnectionState.reconnecting(attempt: 2, nextTry: now).summary(now: now) == "reconnecting")
        #expect(ConnectionState.connected.summary(now: now) == "connected")
        #expect(ConnectionState.connecting.summary(now: now) == "connecting")
        #expect(ConnectionState.signedOut(reason: "at the user's request").summary(now: now) == "signed out (at the user's request)")
        #expect(ConnectionState.connected.isConnected && !ConnectionState.connecting.isConnected)
    }
}
