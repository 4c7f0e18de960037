import SampleTerminal
import Testing

@Suite
struct CommandTests {
    @Test(arguments: [
        ("", Command.none), ("   ", .none), ("?", .help), ("/help", .help), ("/h", .help), ("/quit", .quit), ("/q", .quit),
        ("/exit", .quit), ("/back", .back), ("/b", .back), ("/channels", .channels), ("/c", .channels),
        ("/feed", .feed(nil)), ("/f hiking", .feed("hiking")), ("/profile", .profile(nil)), ("/p alan", .profile("alan")),
        ("3", .open("3")), (" 12 ", .open("12")), ("/open general", .open("general")), ("/o 2", .open("2")),
        ("/more", .more), ("/m", .more), ("/newer", .newer), ("/resend", .resend), ("/discard", .discard),
        ("/react", .react("like")), ("/react wow", .react("wow")), ("/follow", .follow), ("/offline", .offline),
        ("/online", .online), ("/others", .others(1)), ("/others 5", .others(5)), ("/others -3", .others(1)),
        ("/reply", .reply(nil)), ("/reply see you", .reply("see you")), ("/flood", .flood(400)), ("/flood 320", .flood(320)),
        ("hello there", .say("hello there")), ("  spaced  ", .say("spaced")), ("/OFFLINE", .offline),
    ] as [(String, Command)])
    func parses(line: String, command: Command) {
        #expect(Command(parsing: line) == command)
    }

    @Test func anUnknownOrIncompleteSlashCommandIsReported() {
        #expect(Command(parsing: "/dance") == .unknown("/dance"))
        #expect(Command(parsing: "/open") == .unknown("/open"))
    }
}
