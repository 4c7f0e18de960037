import Foundation
import LiveDataServer
import Testing

/// The per-token rate limit answers 429 with Retry-After, and lets requests in again as its
/// bucket refills on the (test's) clock.
@Suite("Rate limit")
struct RateLimitTests {
    @Test func aTokenOverItsBurstGets429WithRetryAfter() async throws {
        try await withServer(configure: {
            $0.rateLimitPerSecond = 0.5
            $0.rateLimitBurst = 3
        }) { server in
            let token = try await server.signIn("alan")
            let other = try await server.signIn("alan")
            let url = server.baseURL.appendingPathComponent("v1/sequence")
            for _ in 0..<3 {
                #expect(try await HTTP.send("GET", url, token: token).status == 200)
            }
            let limited = try await HTTP.send("GET", url, token: token)
            #expect(limited.status == 429)
            #expect(limited.errorCode == "rate_limited")
            #expect(limited.header("Retry-After") == "2", "one request at 0.5 a second needs 2 s")
            #expect(try await HTTP.send("GET", url, token: other).status == 200, "each token has its own bucket")
            server.clock.advance(by: 2)
            #expect(try await HTTP.send("GET", url, token: token).status == 200)
            #expect(try await HTTP.send("GET", url, token: token).status == 429)
        }
    }

    @Test func signInAttemptsAreLimitedOverAllUserIds() async throws {
        try await withServer(configure: {
            $0.signInTotalPerSecond = 1
            $0.signInTotalBurst = 3
        }) { server in
            let url = server.baseURL.appendingPathComponent("v1/sessions")
            for user in ["nobody-1", "nobody-2", "nobody-3"] {
                #expect(try await HTTP.send("POST", url, json: ["userId": user, "password": "guess"]).status == 401)
            }
            let limited = try await HTTP.send("POST", url, json: ["userId": "nobody-4", "password": "guess"])
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "1")
            server.clock.advance(by: 1)
            #expect(try await HTTP.send("POST", url, json: ["userId": "alan", "password": server.passwords["alan"]!]).status == 200)
        }
    }

    @Test func signInAttemptsAreLimitedPerUserId() async throws {
        try await withServer(configure: {
            $0.signInPerSecond = 1
            $0.signInBurst = 2
        }) { server in
            let url = server.baseURL.appendingPathComponent("v1/sessions")
            for _ in 0..<2 {
                let answer = try await HTTP.send("POST", url, json: ["userId": "ada", "password": "guess"])
                #expect(answer.status == 401)
            }
            let limited = try await HTTP.send("POST", url, json: ["userId": "ada", "password": server.passwords["ada"]!])
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "1")
            #expect(try await server.signIn("grace").isEmpty == false, "another user id is not limited")
            server.clock.advance(by: 1)
            let answer = try await HTTP.send("POST", url, json: ["userId": "ada", "password": server.passwords["ada"]!])
            #expect(answer.status == 200)
        }
    }
}

@Suite("RateLimiter")
struct RateLimiterTests {
    @Test func aBucketRefillsAtItsRateUpToItsBurst() {
        let clock = TestClock()
        let limiter = RateLimiter(perSecond: 10, burst: 2, now: { clock.now })
        #expect(limiter.admit("a") == nil)
        #expect(limiter.admit("a") == nil)
        #expect(limiter.admit("a") == 1)
        clock.advance(by: 0.15)
        #expect(limiter.admit("a") == nil, "1.5 requests refilled")
        #expect(limiter.admit("a") == 1)
        clock.advance(by: 100)
        #expect(limiter.admit("a") == nil)
        #expect(limiter.admit("a") == nil)
        #expect(limiter.admit("a") == 1, "an idle bucket holds no more than its burst")
    }

    @Test func retryAfterRoundsTheWaitUp() {
        let clock = TestClock()
        let limiter = RateLimiter(perSecond: 0.25, burst: 1, now: { clock.now })
        #expect(limiter.admit("a") == nil)
        #expect(limiter.admit("a") == 4)
        clock.advance(by: 1)
        #expect(limiter.admit("a") == 3)
    }
}
