/// Counts by name for a randomized run's summary line and coverage expectations.
@MainActor
final class CaseCounts {
    private var counts: [String: Int] = [:]
    /// Set when a case broke the rule: the run stops there.
    var failed = false

    func add(_ name: String) { counts[name, default: 0] += 1 }

    subscript(name: String) -> Int { counts[name] ?? 0 }
}
