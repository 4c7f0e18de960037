// Number formatting for the benchmark tables, shared by the benchmark executables.

/// Three significant digits or so: 1234 → "1,234", 56.78 → "56.8", 3.456 → "3.46", 0.0123 → "0.012".
public func formatted(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    let magnitude = abs(value)
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 0.1 ? 2 : 3
    return fixed(value, decimals: decimals)
}

/// `value` with `decimals` digits after the point and grouped thousands: (1234.5, 1) → "1,234.5".
func fixed(_ value: Double, decimals: Int) -> String {
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((abs(value) * Double(scale)).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    let whole = grouped(scaled / scale)
    guard decimals > 0 else { return sign + whole }
    let fraction = String(scaled % scale)
    return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// 100000 → "100,000".
public func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return result
}
