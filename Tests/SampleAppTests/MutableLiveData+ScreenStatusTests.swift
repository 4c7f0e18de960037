import LiveData
@testable import SampleApp
import Testing

/// How view models change their status: only real changes are delivered, and an action's
/// outcome replaces only the previous action's error.
@MainActor
@Suite
struct MutableLiveDataScreenStatusTests {
    @Test func anUpdateThatChangesNothingDeliversNothing() {
        let status = MutableLiveData(data: ScreenStatus())
        let deliveries = status.record()
        status.update { $0.isLoading = false }
        #expect(deliveries.count == 1)
        status.update { $0.isLoading = true }
        #expect(deliveries.values == [ScreenStatus(), ScreenStatus(isLoading: true)])
    }

    @Test func aFailedActionShowsItsError() {
        let status = MutableLiveData(data: ScreenStatus(error: "page failed"))
        status.showActionError("not posted: refused", replacing: nil)
        #expect(status.data?.error == "not posted: refused")
    }

    @Test func aSuccessTakesBackThePreviousActionsError() {
        let status = MutableLiveData(data: ScreenStatus(error: "not posted: refused"))
        status.showActionError(nil, replacing: "not posted: refused")
        #expect(status.data?.error == nil)
    }

    @Test func aSuccessLeavesAnErrorOfTheScreensOwnData() {
        let status = MutableLiveData(data: ScreenStatus(error: "page failed"))
        status.showActionError(nil, replacing: "not posted: refused")
        #expect(status.data?.error == "page failed")
        status.showActionError(nil, replacing: nil)
        #expect(status.data?.error == "page failed")
    }
}
