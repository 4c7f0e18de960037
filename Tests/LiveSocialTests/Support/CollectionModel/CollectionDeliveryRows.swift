import LiveRepository

/// What one delivery showed.
struct CollectionDeliveryRows {
    var rows: [ModelRow]
    var change: CollectionChange?
    var dataStatus: DataStatus
    var loadingStatus: LoadingStatus
}
