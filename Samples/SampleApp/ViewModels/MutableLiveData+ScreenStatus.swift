import LiveData

extension MutableLiveData<ScreenStatus> {
    /// Changes the status in place, and sets it only when something changed (so observers are
    /// not called for nothing).
    func update(_ change: (inout ScreenStatus) -> Void) {
        var status = data ?? ScreenStatus()
        change(&status)
        if status != data { data = status }
    }

    /// Shows the outcome of a user's action (a post, a follow): its error, or, after a success,
    /// no error where the previous action's error was. An error of the screen's own data stays.
    func showActionError(_ error: String?, replacing previous: String?) {
        update { status in
            if error != nil || status.error == previous { status.error = error }
        }
    }
}
