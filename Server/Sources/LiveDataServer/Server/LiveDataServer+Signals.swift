import Dispatch
import Foundation

extension LiveDataServer {
    /// Serves requests until the process receives SIGINT or SIGTERM, then stops: open event
    /// streams end, and the call returns.
    public func runUntilSignalled() async throws {
        let task = Task { try await run() }
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { task.cancel() }
            source.resume()
            return source
        }
        defer { for source in sources { source.cancel() } }
        do {
            try await task.value
        } catch is CancellationError {
            // Stopped by a signal.
        }
    }
}
