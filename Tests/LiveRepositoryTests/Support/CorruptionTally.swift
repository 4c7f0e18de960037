/// The counts of a corruption run: cases played per kind and per variant, and how the store met
/// them, for the summary line and the coverage expectations.
@MainActor
final class CorruptionTally {
    private(set) var kinds: [String: Int] = [:]
    private(set) var variants: [DamageCase.Variant: Int] = [:]
    private(set) var outcomes: [DamagedStoreCheck.Outcome: Int] = [:]
    /// Set when a case broke the rule: the run stops there.
    var failed = false

    /// The variants whose skip was printed already.
    private var skipsPrinted: Set<DamageCase.Variant> = []

    func add(_ check: DamagedStoreCheck) {
        if check.outcome == .skipped, skipsPrinted.insert(check.damage.variant).inserted {
            print("LiveStoreCorruptionTests: \(check.damage.variant) is skipped here: \(check.steps.last ?? "")")
        }
        kinds[check.damage.variant.kind, default: 0] += 1
        variants[check.damage.variant, default: 0] += 1
        outcomes[check.outcome, default: 0] += 1
    }
}
