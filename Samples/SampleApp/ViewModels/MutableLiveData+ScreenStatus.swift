import LiveData

extension MutableLiveData<ScreenStatus> {
    /// Changes the status in place, and sets it only when something changed (so observers are
    /// not called for nothing).
    func update(_ change: (inout ScreenStatus) -> Void) {
        var status = data ?? ScreenStatus()
        change(&status)
        if status != data { data = status }
    }
}
