import LiveData
import LiveRepository

extension LiveCollection {
    /// Follows this collection into a view model's holders: on every delivery, `rows` gets the
    /// rows made by `transform` (records it returns nil for are left out), `status` (if given)
    /// the loading and data status, and `hasMore` whether another page can be loaded.
    ///
    /// - Parameter actionError: the error of the view model's last action (a refused post, say),
    ///   shown while the collection itself has none.
    /// - Returns: the observation's token; the view model keeps it for as long as it shows the collection.
    func bind<Row>(
        rows: MutableLiveData<[Row]>, status: MutableLiveData<ScreenStatus>? = nil, hasMore: MutableLiveData<Bool>? = nil,
        actionError: @escaping () -> String? = { nil }, _ transform: @escaping (Record) -> Row?
    ) -> NotificationToken {
        observe { collection, _, error in
            rows.data = collection.allObjects().compactMap(transform)
            if let status {
                var next = ScreenStatus(loading: collection.loadingStatus, data: collection.dataStatus, error: error)
                next.error = next.error ?? actionError()
                if next != status.data { status.data = next }
            }
            let more = collection.hasNext || collection.hasPrevious
            if let hasMore, hasMore.data != more { hasMore.data = more }
        }
    }
}
