/// One step of a scripted session: a command, and what must be on screen before the next step.
public struct DemoStep: Sendable {
    /// The command, as typed.
    public var command: String
    /// What the step waits for, in words (for the message when it does not come).
    public var expectation: String
    /// Whether the step is done.
    public var until: @MainActor @Sendable (TerminalApp) -> Bool

    /// Creates a step.
    public init(_ command: String, expecting expectation: String, until: @escaping @MainActor @Sendable (TerminalApp) -> Bool) {
        self.command = command
        self.expectation = expectation
        self.until = until
    }

    /// A step done when the screen shown has fresh data and is not loading.
    public static func fresh(_ command: String) -> DemoStep {
        DemoStep(command, expecting: "fresh data") { app in
            guard let status = app.navigator.top?.status else { return false }
            return status.source == .fresh && !status.isLoading
        }
    }

    /// A step done when a line of the screen contains `text` and is not still being sent.
    public static func shows(_ command: String, _ text: String) -> DemoStep {
        DemoStep(command, expecting: text) { app in
            app.lastFrame?.body.contains { $0.contains(text) && !$0.contains("(sending)") && !$0.contains("(posting)") } ?? false
        }
    }

    /// A step done when the notice line contains `text`.
    public static func notice(_ command: String, _ text: String) -> DemoStep {
        DemoStep(command, expecting: text) { app in app.notice.contains(text) }
    }

    /// The session `--demo` plays: the channel list, a chat (page back, send, a live reply), going
    /// offline and back (the change-log catch-up, then a huge gap and the reload), a feed, a post with a reaction, and a profile.
    public static let tour: [DemoStep] = [
        .fresh("/channels"),
        .fresh("/open general"),
        .fresh("/more"),
        .fresh("/more"),
        .shows("Hello from the LiveData demo!", "Hello from the LiveData demo!"),
        .shows("/reply Welcome, Ada!", "Welcome, Ada!"),
        .notice("/offline", "offline"),
        .notice("/reply Did you see this while offline?", "replied"),
        .notice("/online", "caught up"),
        .notice("/offline", "offline"),
        .notice("/flood 320", "others sent 320"),
        DemoStep("/online", expecting: "a huge gap, then the newest messages") { app in
            app.notice.contains("huge gap") && app.navigator.top?.status.source == .fresh
        },
        .shows("/back", "General"),
        .fresh("/feed"),
        .fresh("1"),
        .shows("/react like", "like"),
        DemoStep("/profile", expecting: "the profile with its followers") { app in
            app.navigator.top?.status.source == .fresh && app.lastFrame?.body.contains { $0.hasPrefix("    1. ") } == true
        },
        DemoStep("/help", expecting: "the help") { app in app.lastFrame?.title == "Help" },
    ]
}
