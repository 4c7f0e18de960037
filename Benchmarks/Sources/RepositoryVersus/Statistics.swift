/// Medians, percentiles and unit conversions for the report.
enum Statistics {
    static func median(_ values: [Double]) -> Double {
        percentile(values, 50)
    }

    /// The `p`th percentile, by linear interpolation between the closest ranks.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Double(sorted.count - 1) * p / 100
        let low = Int(rank.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }
}

func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
}

func seconds(_ duration: Duration) -> Double {
    milliseconds(duration) / 1e3
}
