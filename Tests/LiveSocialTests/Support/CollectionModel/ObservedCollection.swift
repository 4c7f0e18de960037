import LiveRepository
import LiveSocial

/// A live collection of any record type, read as model rows: what the model check drives and
/// compares, without being generic itself.
@MainActor
struct ObservedCollection {
    let count: () -> Int
    let row: (Int) -> ModelRow??
    let allRows: () -> [ModelRow]
    let hasNext: () -> Bool
    let hasPrevious: () -> Bool
    let dataStatus: () -> DataStatus
    let loadingStatus: () -> LoadingStatus
    let hasError: () -> Bool
    let nextPage: () -> Void
    let previousPage: () -> Void
    let resetPage: () -> Void
    /// Observes; the block gets the rows, the change and the statuses of each delivery.
    let observe: (@escaping @MainActor (CollectionDeliveryRows) -> Void) -> NotificationToken
    /// The record at an index, for a local mutation.
    let record: (Int) -> SocialRecord?

    init<Record: CacheRecord>(_ collection: LiveCollection<Record>, subject: CollectionSubject) {
        let rowOf = { (record: Record) -> ModelRow? in SocialRecord(record).flatMap(subject.row) }
        count = { collection.count }
        row = { index in collection.object(at: index).map(rowOf) }
        allRows = { collection.allObjects().compactMap(rowOf) }
        hasNext = { collection.hasNext }
        hasPrevious = { collection.hasPrevious }
        dataStatus = { collection.dataStatus }
        loadingStatus = { collection.loadingStatus }
        hasError = { collection.error != nil }
        nextPage = { collection.nextPage() }
        previousPage = { collection.previousPage() }
        resetPage = { collection.resetPage() }
        observe = { block in
            collection.observe { collection, change, _ in
                block(CollectionDeliveryRows(
                    rows: collection.allObjects().compactMap(rowOf), change: change,
                    dataStatus: collection.dataStatus, loadingStatus: collection.loadingStatus))
            }
        }
        record = { index in collection.object(at: index).flatMap { SocialRecord($0) } }
    }
}
