/// Medians and percentiles for the reports.
public enum Statistics {
    /// The middle value (the mean of the two middle ones of an even count); NaN when empty.
    public static func median(_ values: [Double]) -> Double {
        percentile(values, 50)
    }

    /// The `p`th percentile, by linear interpolation between the closest ranks; NaN when empty.
    public static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Double(sorted.count - 1) * p / 100
        let low = Int(rank.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }
}

/// A duration in nanoseconds.
public func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

/// A duration in milliseconds.
public func milliseconds(_ duration: Duration) -> Double {
    nanoseconds(duration) / 1e6
}

/// A duration in seconds.
public func seconds(_ duration: Duration) -> Double {
    nanoseconds(duration) / 1e9
}
