/// One picture of the app: what the screen shows at a moment, as text.
public struct Frame: Sendable, Hashable {
    /// Which screen it shows; a plain-line output prints the whole frame when this changes.
    public var screen: String
    /// The top bar: the app, the user and the tabs.
    public var header: String
    /// The screen's title.
    public var title: String
    /// The screen's lines.
    public var body: [String]
    /// The latest notice or error; empty for none.
    public var notice: String
    /// The status line: connection, loading and data status, hints.
    public var status: String
    /// The line being typed (interactive terminals only).
    public var input: String

    /// Creates a frame.
    public init(screen: String, header: String, title: String, body: [String], notice: String, status: String, input: String = "") {
        self.screen = screen
        self.header = header
        self.title = title
        self.body = body
        self.notice = notice
        self.status = status
        self.input = input
    }
}

/// Where frames are drawn: a full-screen terminal, or plain lines.
@MainActor
public protocol ScreenOutput: AnyObject {
    /// The columns and rows frames are made for.
    var size: (width: Int, height: Int) { get }
    /// Draws a frame.
    func show(_ frame: Frame)
    /// Prints a line outside the frame (plain output: the commands it runs).
    func log(_ line: String)
    /// Restores the terminal; called once when the app ends.
    func finish()
}
