import Foundation
import Testing

/// Waits, polling every few milliseconds, until `condition` holds; the time limit only fails the
/// test (with `what` and, when given, the state `explain` describes), it asserts nothing about speed.
/// With `recordingIssue` false, running out of time only throws: the caller reports it.
@MainActor
func eventually(
    _ what: String, within limit: Duration = .seconds(60), recordingIssue: Bool = true, explain: (() async -> String)? = nil,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        if ContinuousClock.now >= deadline {
            let state = await explain?() ?? ""
            if recordingIssue { Issue.record("\(what): not so after \(limit)\(state.isEmpty ? "" : "\n" + state)") }
            throw TestServerError("\(what): timed out")
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
