import Foundation
import LiveSocial
import LiveSocialWire
import Testing

@Suite struct WireErrorBodyTests {
    @Test func everyCodeRoundTripsWithItsStatus() throws {
        for code in WireErrorCode.allCases {
            let body = WireErrorBody(code: code, message: "what is wrong")
            #expect(try roundTripBody(body) == body)
            #expect(WireErrorCode(status: code.status) == code)
        }
    }

    @Test func theBodyHasTheContractsShape() throws {
        let body = WireErrorBody(code: .rateLimited, message: "slow down")
        let json = String(decoding: try SocialWire.encode(body), as: UTF8.self)
        #expect(json.contains(#""error":{"#) && json.contains(#""code":"rate_limited""#) && !json.contains("key"))
    }

    @Test func everyAPIErrorSurvivesTheRoundTripButOffline() throws {
        let key = SocialRecordKey(.message, "m1")
        let errors: [SocialAPIError] = [
            .serverFailure("disk full"), .notFound(key), .rejected("not the author"), .invalidRequest("bad cursor"),
        ]
        for error in errors {
            #expect(try roundTripBody(WireErrorBody(error)).apiError == error)
        }
        #expect(WireErrorBody(.offline).apiError.isTransient)
        #expect(WireErrorBody(.notFound(key)).status == 404)
    }

    @Test func codesMapToErrorsAUserCanActOn() {
        #expect(WireErrorBody(code: .tooLarge, message: "text too long").apiError == .invalidRequest("text too long"))
        #expect(WireErrorBody(code: .forbidden, message: "members only").apiError == .rejected("members only"))
        #expect(WireErrorBody(code: .unauthorized, message: "expired").apiError == .rejected("signed out: expired"))
        #expect(WireErrorBody(code: .notFound, message: "no route").apiError == .invalidRequest("no route"))
        #expect(WireErrorBody(code: .rateLimited, message: "wait").apiError.isTransient)
        #expect(WireErrorBody(code: .serverFailure, message: "boom").apiError == .serverFailure("boom"))
    }

    @Test func unreadableStatusesMapByRange() {
        #expect(WireErrorCode(status: 409) == .rejected)
        #expect(WireErrorCode(status: 418) == .invalidRequest)
        #expect(WireErrorCode(status: 502) == .serverFailure)
        #expect(WireErrorCode(status: 503) == .serverFailure)
    }
}
