/// The ways to get a channel's newest page that scenario 1 times.
enum FirstReadContender: CaseIterable, Hashable {
    /// A `LiveCollection` (page size 20, anchored at the end), to its first observe call.
    case liveCollection
    /// GRDB's `ValueObservation` scheduled `.async(onQueue: .main)`, to its first `onChange`.
    case grdbAsync
    /// GRDB's `ValueObservation` scheduled `.immediate`: the first fetch runs on the main thread.
    case grdbImmediate

    var title: String {
        switch self {
        case .liveCollection: "LiveCollection (pageSize 20, anchor .end)"
        case .grdbAsync: "GRDB ValueObservation, .async(onQueue: .main)"
        case .grdbImmediate: "GRDB ValueObservation, .immediate (first fetch blocks main)"
        }
    }
}
