/// What the sequences of a model check reached, added up over the seeds.
@MainActor
final class CoverageTally {
    private(set) var counts: [String: Int] = [:]

    func add(_ name: String, _ amount: Int = 1) { counts[name, default: 0] += amount }

    func add(_ other: [String: Int]) { counts.merge(other, uniquingKeysWith: +) }

    subscript(name: String) -> Int { counts[name, default: 0] }
}
