import Foundation
import Testing

/// At least 10,000 malformed or random requests: every answer is a 4xx with the contract's
/// error body (never a 5xx), the server keeps serving, and its data is unchanged.
///
/// The requests come from a seeded generator: `LIVEDATA_FUZZ_SEED` replays a run,
/// `LIVEDATA_FUZZ_COUNT` changes its size.
@Suite("Fuzz")
struct FuzzTests {
    @Test func tenThousandMalformedRequestsGet4xxAndChangeNothing() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["LIVEDATA_FUZZ_SEED"].flatMap(UInt64.init) ?? 20
        let count = environment["LIVEDATA_FUZZ_COUNT"].flatMap(Int.init) ?? 10_000
        try await withServer(configure: {
            $0.rateLimitPerSecond = 1_000_000
            $0.rateLimitBurst = 1_000_000
            $0.maxTextLength = 2_000
        }) { server in
            let token = try await server.signIn("alan")
            let before = try await server.dataFingerprint()
            var generator = MalformedRequests(random: SplitMix64(seed: seed), maxTextLength: 2_000)
            let requests = (0..<count).map { _ in generator.next() }
            let lanes = 8
            let failures = try await withThrowingTaskGroup(of: [String].self) { group in
                for lane in 0..<lanes {
                    group.addTask {
                        var failures: [String] = []
                        for index in stride(from: lane, to: requests.count, by: lanes) {
                            let request = requests[index]
                            let url = URL(string: server.baseURL.absoluteString + "/" + request.path)!
                            let answer = try await HTTP.send(
                                request.method, url, token: request.authorized ? token : nil,
                                authorization: request.authorization, body: request.body)
                            let isClientError = (400..<500).contains(answer.status)
                            if !isClientError || answer.errorCode == nil || answer.errorMessage?.isEmpty != false {
                                failures.append("request \(index) \(request.method) \(request.path) \(String(decoding: request.body ?? Data(), as: UTF8.self).prefix(300)) -> \(answer.status) \(answer.text.prefix(100))")
                            }
                        }
                        return failures
                    }
                }
                var all: [String] = []
                for try await lane in group { all += lane }
                return all
            }
            #expect(failures.isEmpty, "seed \(seed): \(failures.count) answers were not a 4xx error body, such as \(failures.prefix(5))")
            #expect(try await server.dataFingerprint() == before, "seed \(seed): the malformed requests changed the data")
            let health = try await HTTP.send("GET", server.baseURL.appendingPathComponent("health"))
            #expect(health.status == 200)
            #expect(try await HTTP.send("GET", server.baseURL.appendingPathComponent("v1/sequence"), token: token).status == 200)
        }
    }
}
