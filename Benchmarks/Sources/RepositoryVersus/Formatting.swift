import TableFormatting

// Formatting for this benchmark's tables; numbers come from TableFormatting.

/// Bytes in mebibytes.
func mebibytes(_ bytes: Int) -> String {
    formatted(Double(bytes) / 1_048_576)
}
