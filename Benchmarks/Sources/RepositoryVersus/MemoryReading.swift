/// What the memory scenario measured, and the one line it prints for the parent process.
struct MemoryReading: Sendable {
    /// Rows in the window.
    var rows: Int
    /// Resident bytes at process start, before the cache is built.
    var atStart: Int
    /// Resident bytes just before the collection is created (the store opened on the built cache).
    var beforeOpening: Int
    /// Resident bytes with the window open and a few rows read.
    var withWindow: Int
    /// From creating the collection to its first callback.
    var firstCallbackMilliseconds: Double

    var aboveStart: Int { withWindow - atStart }
    var aboveOpening: Int { withWindow - beforeOpening }

    private static let tag = "memory-reading"

    /// `memory-reading rows=… start=… before=… window=… first-ms=…`
    var line: String {
        "\(Self.tag) rows=\(rows) start=\(atStart) before=\(beforeOpening) window=\(withWindow) "
            + "first-ms=\(firstCallbackMilliseconds)"
    }

    /// Parses the ``line`` of a child process's output, or nil when `text` has none.
    init?(output text: String) {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(Self.tag) }) else { return nil }
        var fields: [String: String] = [:]
        for field in line.split(separator: " ").dropFirst() {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let rows = fields["rows"].flatMap({ Int($0) }), let start = fields["start"].flatMap({ Int($0) }),
            let before = fields["before"].flatMap({ Int($0) }), let window = fields["window"].flatMap({ Int($0) }),
            let first = fields["first-ms"].flatMap({ Double($0) })
        else { return nil }
        self.init(rows: rows, atStart: start, beforeOpening: before, withWindow: window, firstCallbackMilliseconds: first)
    }

    init(rows: Int, atStart: Int, beforeOpening: Int, withWindow: Int, firstCallbackMilliseconds: Double) {
        self.rows = rows
        self.atStart = atStart
        self.beforeOpening = beforeOpening
        self.withWindow = withWindow
        self.firstCallbackMilliseconds = firstCallbackMilliseconds
    }
}
