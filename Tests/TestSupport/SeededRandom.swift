/// A small deterministic pseudo-random generator (SplitMix64) for tests that replay by seed,
/// shared by every test target.
///
/// The same seed gives the same numbers on every platform and Swift version: the helpers below
/// do their own reduction instead of relying on the standard library's `random(in:using:)`,
/// whose algorithm is not guaranteed to stay the same.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0 ..< bound` (`bound` > 0), by multiply-high (Lemire's reduction, unbiased
    /// enough for test generation).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "SeededRandom.below: bound must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// A random element of a non-empty array.
    public mutating func pick<T>(_ elements: [T]) -> T {
        elements[below(elements.count)]
    }

    /// An index into `weights`, each with the probability of its weight among the total.
    /// (Plain loops, no generics: this runs for every random step, also in debug builds.)
    public mutating func index(weightedBy weights: [Int]) -> Int {
        var total = 0
        var index = 0
        while index < weights.count {
            total += weights[index]
            index += 1
        }
        precondition(total > 0, "SeededRandom.index(weightedBy:): weights must add up to more than zero")
        var roll = below(total)
        index = 0
        while index < weights.count - 1, roll >= weights[index] {
            roll -= weights[index]
            index += 1
        }
        return index
    }
}
