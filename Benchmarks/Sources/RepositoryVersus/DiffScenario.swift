import BenchmarkSupport
@_spi(Benchmarks) import LiveRepository

/// Scenario 4: the change set between two snapshots of a window, as live collections compute
/// it (`CollectionDiffing.change(from:to:modified:)`), with the standard library's
/// `difference(from:)` (Myers' algorithm, no modifications) for context.
enum DiffScenario {
    /// Milliseconds per call of `CollectionDiffing.change`, one sample per call, after checking
    /// that the change turns `old` into `new`.
    static func collectionDiffing(_ input: DiffInput, calls: Int) -> [Double] {
        let old = CollectionDiffing.Rows(input.old)
        let new = CollectionDiffing.Rows(input.new)
        let change = CollectionDiffing.change(from: old, to: new, modified: input.modified)
        guard change.applied(to: input.old.map(\.id), inserting: { input.new[$0].id }) == input.new.map(\.id) else {
            fatalError("CollectionDiffing: the change does not lead to the new snapshot")
        }
        return time(calls) {
            CollectionDiffing.change(from: old, to: new, modified: input.modified).insertions.count
        }
    }

    /// Milliseconds per call of `new.difference(from: old)`, after the same kind of untimed
    /// warm-up call and check as ours gets.
    static func standardLibrary(_ input: DiffInput, calls: Int) -> [Double] {
        let old = input.old.map(\.id)
        let new = input.new.map(\.id)
        let difference = new.difference(from: old)
        guard old.applying(difference) == new else {
            fatalError("difference(from:): the difference does not lead to the new snapshot")
        }
        return time(calls) { new.difference(from: old).insertions.count }
    }

    private static func time(_ calls: Int, _ body: () -> Int) -> [Double] {
        let clock = ContinuousClock()
        var sink = 0
        var samples: [Double] = []
        for _ in 0..<calls {
            let start = clock.now
            sink &+= body()
            samples.append(milliseconds(start.duration(to: clock.now)))
        }
        if sink == -1 { print(sink) }
        return samples
    }
}
