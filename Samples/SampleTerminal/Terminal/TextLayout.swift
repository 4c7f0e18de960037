import Foundation

/// Fitting text into the columns of a terminal.
enum TextLayout {
    /// `text` on one line: newlines become spaces, and it is cut with an ellipsis to `width` columns.
    static func fit(_ text: String, width: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        guard width > 0 else { return "" }
        guard flat.count > width else { return flat }
        return String(flat.prefix(max(0, width - 1))) + "…"
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    static func pad(_ text: String, width: Int) -> String {
        let fitted = fit(text, width: width)
        return fitted + String(repeating: " ", count: max(0, width - fitted.count))
    }

    /// `text` wrapped at spaces into lines of at most `width` columns.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(fit(line, width: width))
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(fit(line, width: width)) }
        return lines
    }

    /// A time of day, `HH:mm`, in the user's time zone, after the weekday (`Mon 09:30`) when it
    /// is not today.
    static func clock(_ time: Double, now: Date = Date()) -> String {
        let calendar = Calendar.current
        let date = Date(timeIntervalSince1970: time)
        let components = calendar.dateComponents([.hour, .minute, .weekday], from: date)
        let clock = String(format: "%02d:%02d", components.hour ?? 0, components.minute ?? 0)
        guard !calendar.isDate(date, inSameDayAs: now), let weekday = components.weekday else { return clock }
        return calendar.shortWeekdaySymbols[weekday - 1] + " " + clock
    }
}
