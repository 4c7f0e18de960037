import HeapStats

/// Memory per registered observer, read from the process's malloc heap.
///
/// On Linux (glibc) this is `mallinfo2()`, which covers the main arena: call it
/// from the main thread. On Darwin it is `malloc_zone_statistics` over all zones.
@MainActor
public enum HeapMeasurement {
    /// Whether this platform tells how much of the heap is in use.
    public static var isAvailable: Bool {
        heap_stats_bytes_in_use() > 0
    }

    /// Bytes the heap grows by per observer when `observers` observers are
    /// registered on one source (the handles' own array is reserved beforehand
    /// and not counted; what the handles point to is).
    public static func bytesPerObserver(_ contender: Contender, observers: Int) -> Double {
        switch contender {
        case .floor: heapGrowthPerObserver(FloorSource.self, observers: observers)
        case .liveData: heapGrowthPerObserver(LiveDataOnScreen.self, observers: observers)
        case .liveDataPlainOwner: heapGrowthPerObserver(LiveDataOnPlainOwner.self, observers: observers)
        case .currentValueSubject: heapGrowthPerObserver(SubjectSource.self, observers: observers)
        }
    }
}

@MainActor
func heapGrowthPerObserver<Source: ObservedSource>(_: Source.Type, observers: Int) -> Double {
    // A registration beforehand, on another source, so that one-time runtime
    // allocations (metadata, caches) are not charged to the observers.
    do {
        let warmUp = Source()
        let tally = Tally()
        warmUp.remove(warmUp.register(tally))
    }
    let source = Source()
    let tally = Tally()
    var handles: [Source.Handle] = []
    handles.reserveCapacity(observers)

    let before = heap_stats_bytes_in_use()
    for _ in 0 ..< observers {
        handles.append(source.register(tally))
    }
    let after = heap_stats_bytes_in_use()

    withExtendedLifetime((source, tally, handles)) {}
    return (Double(after) - Double(before)) / Double(observers)
}
