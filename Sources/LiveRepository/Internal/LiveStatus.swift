/// The statuses a live object and a live collection share, and the rule for when a change of
/// them is worth calling observers.
struct LiveStatus {
    var dataStatus = DataStatus.notExist
    var loadingStatus = LoadingStatus.notLoading
    /// Every assignment counts as news (errors are not comparable): see ``errorRevision``.
    var error: (any Error)? { didSet { errorRevision &+= 1 } }
    /// Bumped by every assignment to ``error``, so that an update can tell a newly set (or
    /// cleared) error from one merely still present.
    private(set) var errorRevision = 0

    /// Whether observers must hear of the move from `old` to this: a new data status, an error
    /// set or cleared, or a request that ended. A move to `.loading` alone calls no one.
    func isVisibleChange(from old: LiveStatus) -> Bool {
        dataStatus != old.dataStatus
            || (errorRevision != old.errorRevision && (error != nil || old.error != nil))
            || (loadingStatus != old.loadingStatus && loadingStatus != .loading)
    }
}
