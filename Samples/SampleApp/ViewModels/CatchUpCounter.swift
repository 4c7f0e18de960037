/// Counts the changes of one change-log catch-up. A catch-up reports all its changes (added,
/// updated, deleted) in one turn of the main actor, so a count that starts in a new turn belongs
/// to a new catch-up.
@MainActor
final class CatchUpCounter {
    private var count = 0
    private var isCounting = false

    /// Adds `changes` to the current catch-up's count, and returns the count so far.
    func add(_ changes: Int) -> Int {
        if !isCounting {
            isCounting = true
            count = 0
            Task { @MainActor [weak self] in self?.isCounting = false }
        }
        count += changes
        return count
    }
}
