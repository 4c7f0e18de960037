import Foundation

/// Fitting text into the columns of a terminal.
///
/// Widths are in terminal columns, not characters: an emoji shown as a picture and the common
/// East Asian wide scripts (CJK, kana, Hangul, full-width forms) take two columns, as terminals
/// draw them; every other character takes one.
enum TextLayout {
    /// The columns a terminal gives `character`: 2 for a wide one, else 1.
    static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.isEmojiPresentation || isWide(first.value) { return 2 }
        // A text-style symbol followed by the emoji variation selector is drawn as a picture.
        if first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        return 1
    }

    /// The columns `text` takes on one line.
    static func columns<Text: StringProtocol>(_ text: Text) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// The longest start of `text` that fits in `width` columns.
    static func prefix(_ text: String, columns width: Int) -> String {
        var used = 0
        var end = text.startIndex
        for character in text {
            used += columns(of: character)
            if used > width { break }
            end = text.index(after: end)
        }
        return String(text[..<end])
    }

    /// The longest end of `text` that fits in `width` columns.
    static func suffix(_ text: String, columns width: Int) -> String {
        var used = 0
        var start = text.endIndex
        for character in text.reversed() {
            used += columns(of: character)
            if used > width { break }
            start = text.index(before: start)
        }
        return String(text[start...])
    }

    /// `text` on one line: newlines become spaces, and it is cut with an ellipsis to `width` columns.
    static func fit(_ text: String, width: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        guard width > 0 else { return "" }
        guard columns(flat) > width else { return flat }
        return prefix(flat, columns: width - 1) + "…"
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    static func pad(_ text: String, width: Int) -> String {
        let fitted = fit(text, width: width)
        return fitted + String(repeating: " ", count: max(0, width - columns(fitted)))
    }

    /// `text` wrapped at spaces into lines of at most `width` columns.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if columns(line) + 1 + columns(word) <= width {
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

    /// Whether `value` is in one of the East Asian wide blocks.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
