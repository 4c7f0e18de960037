import BenchmarkSupport

// Formatting for this benchmark's tables; numbers come from BenchmarkSupport.

/// Bytes in mebibytes.
func mebibytes(_ bytes: Int) -> String {
    formatted(Double(bytes) / 1_048_576)
}
