/// Counts the changes of one change-log catch-up and reports the total once. A catch-up reports
/// all its changes (added, updated, deleted) in one turn of the main actor, so the count is
/// reported when that turn is over, and a count that starts in a new turn belongs to a new catch-up.
@MainActor
final class CatchUpCounter {
    private var count = 0
    private var isCounting = false
    private let report: (Int) -> Void

    /// Creates a counter that calls `report` with each catch-up's total.
    init(report: @escaping (Int) -> Void) {
        self.report = report
    }

    /// Adds `changes` to the current catch-up's count.
    func add(_ changes: Int) {
        count += changes
        guard !isCounting else { return }
        isCounting = true
        Task { @MainActor [weak self] in self?.finish() }
    }

    private func finish() {
        let total = count
        count = 0
        isCounting = false
        report(total)
    }
}
