import Foundation
@testable import SampleTerminal
import Testing

@Suite
struct TextLayoutTests {
    @Test(arguments: [
        ("abc", 3), ("", 0), ("💬", 2), ("♥", 1), ("❤️", 2), ("🇫🇷", 2), ("日本", 4), ("한", 2),
        ("e\u{301}", 1), ("Ａ", 2), ("👩‍💻", 2),
    ])
    func columnsCountWideCharactersTwice(text: String, columns: Int) {
        #expect(TextLayout.columns(text) == columns)
    }

    @Test func fitCutsWithAnEllipsisToTheWidth() {
        #expect(TextLayout.fit("hello world", width: 5) == "hell…")
        #expect(TextLayout.fit("hello", width: 5) == "hello")
        #expect(TextLayout.fit("one\ntwo", width: 20) == "one two")
        #expect(TextLayout.fit("anything", width: 0) == "")
    }

    @Test func fitNeverSplitsOrOverrunsAWideCharacter() {
        #expect(TextLayout.fit("日本語テキスト", width: 5) == "日本…")
        #expect(TextLayout.fit("a日本", width: 3) == "a…")
        #expect(TextLayout.fit("💬💬💬", width: 4) == "💬…")
    }

    @Test func padFillsExactlyTheWidth() {
        #expect(TextLayout.pad("ab", width: 4) == "ab  ")
        #expect(TextLayout.pad("💬 3", width: 6) == "💬 3  ")
        #expect(TextLayout.pad("日本語", width: 4) == "日… ")
        for text in ["日本語", "💬 3", "a日本", "❤️❤️❤️", "plain text"] {
            for width in 1...8 {
                #expect(TextLayout.columns(TextLayout.pad(text, width: width)) == width, "\(text) at \(width)")
            }
        }
    }

    @Test func wrapCountsColumns() {
        #expect(TextLayout.wrap("one two three", width: 7) == ["one two", "three"])
        #expect(TextLayout.wrap("日本 日本 日本", width: 9) == ["日本 日本", "日本"])
        #expect(TextLayout.wrap("日本語日本語", width: 5) == ["日本…"])
    }

    @Test func prefixAndSuffixStopBeforeAWideCharacterThatWouldNotFit() {
        #expect(TextLayout.prefix("ab日本", columns: 3) == "ab")
        #expect(TextLayout.prefix("ab日本", columns: 4) == "ab日")
        #expect(TextLayout.suffix("ab日本", columns: 3) == "本")
        #expect(TextLayout.suffix("ab日本", columns: 5) == "b日本")
        #expect(TextLayout.suffix("ab", columns: 10) == "ab")
    }

    @Test func clockShowsTheWeekdayOnlyForAnotherDay() throws {
        let calendar = Calendar.current
        let now = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 19, hour: 12, minute: 0)))
        let morning = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 19, hour: 9, minute: 5)))
        let earlier = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 17, hour: 23, minute: 45)))
        #expect(TextLayout.clock(morning.timeIntervalSince1970, now: now) == "09:05")
        let weekday = calendar.shortWeekdaySymbols[calendar.component(.weekday, from: earlier) - 1]
        #expect(TextLayout.clock(earlier.timeIntervalSince1970, now: now) == "\(weekday) 23:45")
    }
}
