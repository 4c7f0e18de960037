import Foundation
import ProcessLauncher
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `livedata-server` executable (``ServerProcess``), started on a data folder and a
/// port, and killed with `SIGKILL` when a test says so.
struct LaunchedServer: Sendable {
    let process: ServerProcess
    let port: Int

    /// Starts `livedata-server --port <port> --data <folder>` (and `arguments`, such as
    /// `--postgres URL`) and waits for its `listening on` line. A port still held by the killed
    /// server's sockets is tried again, for at most 30 s.
    static func start(port: Int, folder: URL, arguments: [String] = []) async throws -> LaunchedServer {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let process = try ServerProcess(
                arguments: ["--port", String(port), "--data", folder.path, "--heartbeat", "2"] + arguments)
            let (before, line) = await process.lines { $0.hasPrefix("listening on ") }
            if let line, let listening = Int(line.split(separator: ":").last ?? "") {
                return LaunchedServer(process: process, port: listening)
            }
            _ = await process.waitForExit()
            guard ContinuousClock.now < deadline else {
                throw TestServerError("livedata-server did not start on port \(port): \(before.suffix(5))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Kills the server with `SIGKILL` and waits until it is gone.
    func kill() async {
        process.process.send(SIGKILL)
        _ = await process.waitForExit()
    }

    /// The demo users' passwords from `<folder>/demo-credentials`.
    static func passwords(in folder: URL) throws -> [String: String] {
        let text = try String(contentsOf: folder.appendingPathComponent("demo-credentials"), encoding: .utf8)
        var passwords: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { passwords[String(parts[0])] = String(parts[1]) }
        }
        return passwords
    }
}
