import Foundation
import LiveRepository
import LiveSocial
import LiveSocialServer
import TestSupport

/// `server-latency <file> <watch-ms|wake> [count]`: measures how long another process's message takes
/// to reach this process's subscriber. For measurements, not for the tests.
///
/// It opens an `EmbeddedServer` on the file polling every `watch-ms` milliseconds, or woken by
/// each commit with `wake` (the default setting; seeding the
/// demo data if the file has none), subscribes to its events, and runs a second copy of this
/// helper with `server-send` that sends `count` messages (300 by default) into `general`, 7 ms
/// apart. For each, the latency is the time from the message's `createdAt` (taken in the
/// sender's write transaction, from the wall clock) to its event here. It prints
/// `watch <ms> n <count> p50 <ms> p90 <ms> p99 <ms> max <ms>` and exits 0.
enum ServerLatencyCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        let watch = arguments.count >= 2 ? arguments[1] : ""
        let detection: ExternalChangeDetection? = watch == "wake" ? .default
            : Double(watch).map { .polling(every: .microseconds(Int($0 * 1000))) }
        guard let detection else {
            ServerIO.complain("usage: server-latency <file> <watch-ms|wake> [count]")
            return 64
        }
        let count = arguments.count > 2 ? Int(arguments[2]) ?? 300 : 300
        do {
            let server = try EmbeddedServer(
                location: .file(URL(fileURLWithPath: arguments[0])), externalChanges: detection)
            try await server.seedDemoData()
            let events = server.connection(userId: "ada").events()
            let listener = Task { () -> [Double] in
                var latencies: [Double] = []
                for await event in events {
                    guard case .created(.message(let message), _) = event, message.clientRequestId.hasPrefix("latency-") else { continue }
                    latencies.append(Date().timeIntervalSince1970 - message.createdAt)
                    if latencies.count == count { break }
                }
                return latencies
            }
            let sender = try SpawnedProcess(
                CommandLine.arguments[0],
                arguments: ["server-send", arguments[0], "alan", "general", "\(count)", "latency-\(UUID().uuidString)", "7"],
                standardInput: .pipe, standardOutput: .nullDevice)
            let input = sender.input!
            input.write(Data("go\n".utf8))
            let latencies = await listener.value.sorted()
            input.write(Data("through \(try await server.latestSequence())\n".utf8))
            _ = await sender.termination()
            func milliseconds(_ quantile: Double) -> String {
                String(format: "%.2f", latencies[min(latencies.count - 1, Int(Double(latencies.count) * quantile))] * 1000)
            }
            ServerIO.say(
                "watch \(watch) n \(latencies.count) p50 \(milliseconds(0.5)) p90 \(milliseconds(0.9)) "
                    + "p99 \(milliseconds(0.99)) max \(milliseconds(1))")
            return 0
        } catch {
            ServerIO.complain("server-latency failed: \(error)")
            return 1
        }
    }
}
