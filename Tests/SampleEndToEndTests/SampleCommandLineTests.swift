// Runs the built sample as a child process: macOS and Linux only (iOS and its siblings have no
// `Process`, and no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// The command line and the environment variable: help, errors, exit codes.
@Suite(.timeLimit(.minutes(3)))
struct SampleCommandLineTests {
    @Test func unknownOptionExitsWith64() async throws {
        let folder = try TemporaryDirectory()
        let result = try await SampleProcess(data: folder, arguments: ["--bogus"]).finish()
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("LiveDataSample: unknown option --bogus"))
        #expect(result.errors.contains("usage: LiveDataSample"))
        #expect(result.output.isEmpty)
    }

    @Test func unknownUserExitsWith1AndListsTheUsers() async throws {
        let folder = try TemporaryDirectory()
        let result = try await SampleProcess(data: folder, arguments: ["--user", "nobody"]).finish()
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("LiveDataSample: "))
        #expect(result.errors.contains("nobody"))
        #expect(result.errors.contains("ada, alan, grace, linus, margaret, tim"))
        #expect(result.output.isEmpty)
    }

    @Test func dataFolderThatIsAFileExitsWith1() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("not-a-folder")
        try Data("keep me".utf8).write(to: file)
        let result = try await SampleProcess(data: nil, arguments: ["--data", file.path]).finish()
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("LiveDataSample: cannot use the data folder \(file.path)"))
        #expect(result.errors.contains("--data"))
        #expect(!result.errors.contains(".."), "a doubled full stop in: \(result.errors)")
        #expect(result.output.isEmpty)
        #expect(try Data(contentsOf: file) == Data("keep me".utf8))
    }

    @Test func helpPrintsTheUsageAndExitsWithZero() async throws {
        let folder = try TemporaryDirectory()
        let result = try await SampleProcess(data: folder, arguments: ["--help"]).finish()
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("usage: LiveDataSample [options]"))
        for option in ["--data", "--user", "--demo", "--plain", "--latency", "--activity", "--reset", "--server", "--password", "--help"] {
            #expect(result.output.contains(option))
        }
        #expect(result.errors.isEmpty)
        #expect(folder.contents.isEmpty, "--help touched the data folder")
    }

    @Test func environmentVariableChoosesTheDataFolder() async throws {
        let folder = try TemporaryDirectory()
        let app = try SampleProcess(data: nil, environment: ["LIVEDATA_SAMPLE_DATA": folder.url.path])
        try await app.waitForChannels()
        let result = await app.finish()
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.file("users/ada/cache.sqlite").path))
        #expect(folder.contents.contains("server.sqlite"))
    }

    @Test(arguments: [
        (["--server", "127.0.0.1:8080"], "--server needs an http:// or https:// address"),
        (["--server", "ftp://example.org"], "--server needs an http:// or https:// address"),
        (["--password", "secret"], "--password goes with --server"),
        (["--server", "http://127.0.0.1:1", "--demo"], "--demo plays on the embedded server"),
    ])
    func aMisusedNetworkOptionExitsWith64(arguments: [String], message: String) async throws {
        let folder = try TemporaryDirectory()
        let result = try await SampleProcess(data: folder, arguments: arguments).finish()
        #expect(result.status == 64)
        #expect(result.errors.hasPrefix("LiveDataSample: \(message)"), "errors: \(result.errors)")
        #expect(folder.contents.isEmpty, "a refused command line touched the data folder")
    }

    @Test func aServerThatCannotBeReachedExitsWith1AndSaysSo() async throws {
        let folder = try TemporaryDirectory()
        // Nothing listens on port 1 of the loopback address: the connection is refused at once.
        let result = try await SampleProcess(data: folder, arguments: ["--server", "http://127.0.0.1:1", "--password", "x"]).finish()
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("LiveDataSample: cannot sign in to http://127.0.0.1:1"), "errors: \(result.errors)")
        #expect(result.errors.contains("Is livedata-server running there?"))
        #expect(!folder.contents.contains("server.sqlite"), "across machines there is no server file")
        #expect(result.output.isEmpty)
    }
}
#endif
