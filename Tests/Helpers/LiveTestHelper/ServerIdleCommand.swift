import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer

/// `server-idle <file> <seconds> [watch-ms|off]`: measures what watching a server file costs
/// while nothing happens. It opens an `EmbeddedServer` on the file (polling every `watch-ms`
/// milliseconds, at the default setting (wake-ups) when not given, or not at all with `off`), subscribes one
/// connection to its events, waits `seconds` of real time and prints
/// `cpu <seconds of CPU used while waiting> per-second <CPU fraction>`; exits 0.
/// For measurements, not for the tests.
enum ServerIdleCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count >= 2, let seconds = Double(arguments[1]) else {
            ServerIO.complain("usage: server-idle <file> <seconds> [watch-ms|off]")
            return 64
        }
        let watch: ExternalChangeDetection = switch arguments.count > 2 ? arguments[2] : nil {
        case nil: .default
        case "off": .off
        case let text?: .polling(every: .microseconds(Int((Double(text) ?? 10) * 1000)))
        }
        do {
            let server = try EmbeddedServer(location: .file(URL(fileURLWithPath: arguments[0])), externalChanges: watch)
            let events = server.connection(userId: "idle").events()
            let listener = Task { for await _ in events {} }
            defer { listener.cancel() }
            let before = cpuSeconds()
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            let used = cpuSeconds() - before
            ServerIO.say("cpu \(used) per-second \(used / seconds)")
            return 0
        } catch {
            ServerIO.complain("server-idle failed: \(error)")
            return 1
        }
    }

    /// The CPU time (user and system) this process has used, in seconds.
    private static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
