import Foundation

/// Reads standard input on a thread of its own and hands it over as ``InputEvent``s: keys from
/// a terminal in raw mode, else lines.
public enum InputReader {
    /// The events of standard input, read as keys when `keys` is true, else as lines; the
    /// stream ends after ``InputEvent/end``.
    public static func events(keys: Bool) -> AsyncStream<InputEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: InputEvent.self)
        let thread = Thread {
            if keys {
                var buffer = [UInt8](repeating: 0, count: 64)
                while true {
                    let count = read(STDIN_FILENO, &buffer, buffer.count)
                    if count <= 0 { break }
                    for key in Key.decode(Array(buffer[0..<count])) { continuation.yield(.key(key)) }
                }
            } else {
                while let line = readLine(strippingNewline: true) { continuation.yield(.line(line)) }
            }
            continuation.yield(.end)
            continuation.finish()
        }
        thread.start()
        return stream
    }
}
