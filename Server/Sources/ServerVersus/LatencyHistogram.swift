/// Latencies counted in 10-microsecond buckets up to 10 seconds (one more bucket holds the
/// rest): exact enough for percentiles, and a fixed size however many samples arrive.
struct LatencyHistogram: Sendable {
    static let bucketNanoseconds: UInt64 = 10_000
    static let bucketCount = 1_000_000
    private(set) var buckets: [UInt32]
    private(set) var count = 0

    /// An empty histogram (4 MB, allocated and touched at once).
    init() {
        buckets = [UInt32](repeating: 0, count: Self.bucketCount + 1)
    }

    /// Adds one latency.
    mutating func add(nanoseconds: UInt64) {
        let index = min(Int(nanoseconds / Self.bucketNanoseconds), Self.bucketCount)
        buckets[index] &+= 1
        count += 1
    }

    /// The latency below which `fraction` of the samples fall, in milliseconds (the bucket's
    /// upper edge); nil without samples.
    func percentile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (index, bucket) in buckets.enumerated() where bucket > 0 {
            seen += Int(bucket)
            if seen >= rank {
                return Double(UInt64(index + 1) * Self.bucketNanoseconds) / 1_000_000
            }
        }
        return Double(UInt64(Self.bucketCount) * Self.bucketNanoseconds) / 1_000_000
    }
}
