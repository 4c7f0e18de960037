import Foundation
import LiveSocial
import LiveSocialWire
@testable import LiveSocialNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct ResponseMappingTests {
    @Test(arguments: [
        (400, WireErrorCode.invalidRequest, SocialAPIError.invalidRequest("m")),
        (413, .tooLarge, .invalidRequest("m")),
        (403, .forbidden, .rejected("m")),
        (409, .rejected, .rejected("m")),
        (422, .rejected, .rejected("m")),
        (401, .unauthorized, .rejected("signed out: m")),
        (404, .notFound, .invalidRequest("m")),
        (429, .rateLimited, .serverFailure("too many requests: m")),
        (500, .serverFailure, .serverFailure("m")),
        (503, .serverFailure, .serverFailure("m")),
    ])
    func aStatusAndItsBodyMapToAnError(status: Int, code: WireErrorCode, expected: SocialAPIError) {
        #expect(ResponseMapping.error(for: .error(code, "m", status: status)) == expected)
    }

    @Test(arguments: [
        (400, SocialAPIError.invalidRequest("the server answered HTTP 400")),
        (413, .invalidRequest("the server answered HTTP 413")),
        (403, .rejected("the server answered HTTP 403")),
        (409, .rejected("the server answered HTTP 409")),
        (502, .serverFailure("the server answered HTTP 502")),
        (504, .serverFailure("the server answered HTTP 504")),
    ])
    func aBodyThatIsNotTheContractsIsJudgedByItsStatus(status: Int, expected: SocialAPIError) {
        let response = HTTPResponse(status: status, headers: ["Content-Type": "text/html"], body: Data("<h1>Bad Gateway</h1>".utf8))
        #expect(ResponseMapping.error(for: response) == expected)
    }

    @Test func aMissingMutationTargetIsNotFoundWithItsKey() {
        let target = SocialRecordKey(.message, "m1")
        #expect(ResponseMapping.error(for: .error(.notFound, "no such message"), target: target) == .notFound(target))
        let named = SocialRecordKey(.post, "p9")
        let body = HTTPResponse.json(WireErrorBody(code: .notFound, message: "gone", key: named), status: 404)
        #expect(ResponseMapping.error(for: body, target: target) == .notFound(named))
    }

    @Test func aRateLimitSaysWhenToTryAgain() {
        var response = HTTPResponse.error(.rateLimited, "slow down")
        response.headers["retry-after"] = "3"
        let error = ResponseMapping.error(for: response)
        #expect(error == .serverFailure("too many requests: slow down; try again in 3 s"))
        #expect(error.isTransient)
    }

    @Test(arguments: [URLError.Code.cannotConnectToHost, .timedOut, .networkConnectionLost, .notConnectedToInternet, .cannotFindHost])
    func aTransportFailureIsOffline(code: URLError.Code) {
        #expect(ResponseMapping.error(forTransportFailure: URLError(code)) as? SocialAPIError == .offline)
    }

    @Test func cancellationStaysCancellation() {
        #expect(ResponseMapping.error(forTransportFailure: CancellationError()) is CancellationError)
    }

    @Test func onlyALostConnectionMayHaveLostAnAnswer() {
        #expect(ResponseMapping.mayHaveLostAnAnswer(URLError(.networkConnectionLost)))
        // FoundationNetworking's "Empty reply from server": closed after the request, before an answer.
        #expect(ResponseMapping.mayHaveLostAnAnswer(URLError(.badServerResponse)))
        #expect(!ResponseMapping.mayHaveLostAnAnswer(URLError(.cannotConnectToHost)))
        #expect(!ResponseMapping.mayHaveLostAnAnswer(URLError(.timedOut)))
    }

    @Test func anUnreadableSuccessIsAServerFailure() {
        #expect(throws: SocialAPIError.serverFailure(#"the server's answer could not be read: missing field "latestSequence""#)) {
            try ResponseMapping.decode(SequenceBody.self, from: HTTPResponse(status: 200, body: Data("{}".utf8)))
        }
    }
}
