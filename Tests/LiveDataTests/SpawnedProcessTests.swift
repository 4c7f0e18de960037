import Foundation
import Testing
import TestSupport

/// The launcher the tests start child processes with (instead of Foundation's `Process`, whose
/// `run()` sometimes crashed on Linux with many descriptors open). Children are system tools
/// (`/bin/sh`, `/bin/cat`, `/bin/ls`). Serialized: two tests open 900 descriptors each.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct SpawnedProcessTests {
    /// Everything `handle` gives until its end, as text.
    private func text(_ handle: FileHandle?) throws -> String {
        let handle = try #require(handle)
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test func capturesOutputErrorsAndExitStatus() async throws {
        let child = try SpawnedProcess(
            "/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"], standardOutput: .pipe, standardError: .pipe)
        #expect(try text(child.output) == "out\n")
        #expect(try text(child.errors) == "err\n")
        let termination = await child.termination()
        #expect(termination == .exited(3))
        #expect(termination.status == 3)
        #expect(!child.isRunning)
    }

    @Test func mergesErrorsIntoOutput() async throws {
        let child = try SpawnedProcess(
            "/bin/sh", arguments: ["-c", "echo out; echo err >&2"], standardOutput: .pipe, standardError: .standardOutput)
        #expect(try text(child.output) == "out\nerr\n")
        #expect(child.errors == nil)
        #expect(await child.termination() == .exited(0))
    }

    @Test func feedsStandardInput() async throws {
        let child = try SpawnedProcess("/bin/cat", standardInput: .pipe, standardOutput: .pipe)
        let input = try #require(child.input)
        input.write(Data("one\ntwo\n".utf8))
        try input.close()
        #expect(try text(child.output) == "one\ntwo\n")
        #expect(await child.termination() == .exited(0))
    }

    @Test func readsNothingFromTheNullDevice() async throws {
        let child = try SpawnedProcess("/bin/cat", standardInput: .nullDevice, standardOutput: .pipe)
        #expect(try text(child.output) == "")
        #expect(await child.termination() == .exited(0))
    }

    @Test(arguments: [SIGKILL, SIGTERM, SIGINT])
    func reportsTheSignalThatEndedIt(_ signal: Int32) async throws {
        // `cat` waits for input that never comes: only the signal ends it.
        let child = try SpawnedProcess("/bin/cat", standardInput: .pipe, standardOutput: .nullDevice)
        #expect(child.isRunning)
        #expect(child.send(signal))
        let termination = await child.termination()
        #expect(termination == .signaled(signal))
        #expect(termination.status == signal)
        #expect(!child.isRunning)
        #expect(!child.send(SIGKILL), "a reaped child's pid may be another process's by now")
        #expect(child.waitUntilExit() == termination)
    }

    @Test func givesTheEnvironmentAndWorkingDirectory() async throws {
        let folder = try TemporaryDirectory()
        let child = try SpawnedProcess(
            "/bin/sh", arguments: ["-c", "echo \"$GREETING\"; echo \"${HOME-unset}\"; pwd -P"],
            environment: ["GREETING": "hello there"], workingDirectory: folder.url.path, standardOutput: .pipe)
        #expect(try text(child.output) == "hello there\nunset\n\(folder.url.resolvingSymlinksInPath().path)\n")
        #expect(await child.termination() == .exited(0))
    }

    @Test func inheritsTheEnvironmentByDefault() async throws {
        let child = try SpawnedProcess("/bin/sh", arguments: ["-c", "echo \"$PATH\""], standardOutput: .pipe)
        #expect(try text(child.output) == (ProcessInfo.processInfo.environment["PATH"] ?? "") + "\n")
        #expect(await child.termination() == .exited(0))
    }

    @Test func callsTheTerminationHandler() async throws {
        let child = try SpawnedProcess("/bin/sh", arguments: ["-c", "exit 7"])
        let first = await withCheckedContinuation { continuation in
            child.onTermination { continuation.resume(returning: $0) }
        }
        #expect(first == .exited(7))
        // Once it has ended, at once.
        let told = Locked<SpawnedProcess.Termination?>(nil)
        child.onTermination { termination in told.withLock { $0 = termination } }
        #expect(told.withLock { $0 } == .exited(7))
    }

    @Test func refusesWhatItCannotStart() throws {
        #expect(throws: SpawnedProcessError.self) { try SpawnedProcess("/nonexistent/tool") }
        #expect(throws: SpawnedProcessError.self) { try SpawnedProcess("/bin/sh", standardOutput: .standardOutput) }
        #expect(throws: SpawnedProcessError.self) {
            try SpawnedProcess("/bin/sh", workingDirectory: "/nonexistent/folder")
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "Linux's /proc lists a process's descriptors"))
    func closesEveryOtherDescriptorInTheChild() async throws {
        let open = try OpenDescriptors(count: 900)
        // `ls` lists its own descriptors: the three streams and the listed directory.
        let child = try SpawnedProcess("/bin/ls", arguments: ["-1", "/proc/self/fd"], standardOutput: .pipe)
        let listed = try text(child.output).split(separator: "\n").map(String.init)
        #expect(await child.termination() == .exited(0))
        #expect(listed == ["0", "1", "2", "3"], "the child had \(listed.count) descriptors open")
        withExtendedLifetime(open) {}
    }

    @Test func spawnsTwoHundredTimesWithNineHundredDescriptorsOpen() async throws {
        let open = try OpenDescriptors(count: 900)
        var ends: [SpawnedProcess.Termination] = []
        for index in 0..<200 {
            let child = try SpawnedProcess(
                "/bin/sh", arguments: ["-c", "exit $(($1 % 5))", "sh", String(index)], standardOutput: .pipe)
            #expect(try text(child.output) == "")
            ends.append(await child.termination())
        }
        #expect(ends == (0..<200).map { .exited(Int32($0 % 5)) })
        withExtendedLifetime(open) {}
    }
}
