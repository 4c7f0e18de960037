// Runs the built sample as a child process: macOS and Linux only (iOS and its siblings have no
// `Process`, and no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// `--demo`: the scripted tour plays by itself and exits.
@Suite(.timeLimit(.minutes(3)))
struct SampleDemoTests {
    @Test func demoPlaysTheTourAndExitsWithZero() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: folder, latency: 100, arguments: ["--demo"])
        let result = await app.finish()

        #expect(result.status == 0, "errors: \(result.errors)\noutput:\n\(result.output)")
        #expect(result.output.hasSuffix("bye\n"))
        #expect(!result.output.contains("did not finish"))
        #expect(!result.output.utf8.contains(0x1B), "plain output must have no escape sequences")
        let lines = result.output.split(separator: "\n")
        #expect(lines.contains { SampleProcess.isChatLine($0) && $0.hasSuffix(" ada: Hello from the LiveData demo!") })
        #expect(lines.contains { SampleProcess.isChatLine($0) && $0.hasSuffix(" alan: Welcome, Ada!") })
        #expect(lines.contains { $0.hasPrefix("notice: caught up") })
        #expect(lines.contains("== Help =="))
        #expect(result.errors.isEmpty)
    }
}
#endif
