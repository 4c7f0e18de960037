/// Something the user typed.
public enum InputEvent: Sendable, Hashable {
    /// A whole line (input that is not a terminal).
    case line(String)
    /// One key (a terminal in raw mode).
    case key(Key)
    /// The input ended.
    case end
}

/// A key pressed on a terminal.
public enum Key: Sendable, Hashable {
    /// A printable character.
    case character(Character)
    /// Enter.
    case enter
    /// Backspace.
    case backspace
    /// Escape.
    case escape
    /// The arrow up.
    case up
    /// The arrow down.
    case down
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Tab.
    case tab
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D.
    case endOfInput

    /// The keys in a chunk of bytes read from a raw terminal.
    public static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                let rest = Array(bytes[(index + 1)...])
                let sequences: [([UInt8], Key)] = [
                    (Array("[A".utf8), .up), (Array("[B".utf8), .down), (Array("OA".utf8), .up), (Array("OB".utf8), .down),
                    (Array("[5~".utf8), .pageUp), (Array("[6~".utf8), .pageDown),
                ]
                if let (sequence, key) = sequences.first(where: { rest.starts(with: $0.0) }) {
                    keys.append(key)
                    index += 1 + sequence.count
                } else if rest.first == UInt8(ascii: "[") || rest.first == UInt8(ascii: "O") {
                    // Another escape sequence: skip it up to its final letter or tilde.
                    var end = index + 2
                    while end < bytes.count, !(bytes[end] >= 0x40 && bytes[end] <= 0x7E) { end += 1 }
                    index = end + 1
                } else {
                    keys.append(.escape)
                    index += 1
                }
                continue
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x09: keys.append(.tab)
            case 0x03: keys.append(.interrupt)
            case 0x04: keys.append(.endOfInput)
            case 0x00..<0x20: break
            default:
                // A UTF-8 character: its lead byte tells its length.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let end = min(bytes.count, index + length)
                if let text = String(validating: bytes[index..<end], as: UTF8.self) {
                    keys += text.map(Key.character)
                }
                index = end
                continue
            }
            index += 1
        }
        return keys
    }
}
