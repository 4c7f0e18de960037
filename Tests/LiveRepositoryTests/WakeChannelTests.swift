import Foundation
import LiveData
import TestSupport
@testable import LiveRepository
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a crash leaves in a file's wake-up folder, and how the next watcher cleans it up.
@Suite struct WakeChannelTests {
    /// A PID no process has (above any system's `pid_max`).
    static let deadPID: Int32 = Int32.max - 1

    /// Makes the pipe `name` in `folder`, made `age` seconds ago.
    func makePipe(_ name: String, in folder: String, age: Int = 0) throws {
        let path = "\(folder)/\(name)"
        #expect(mkfifo(path, 0o600) == 0)
        if age > 0 { self.age(path, by: age) }
    }

    func names(in folder: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder))
    }

    @Test func stalePipesAreDeletedAndLiveOnesKept() throws {
        let directory = try TemporaryDirectory()
        let folder = WakeChannel.folder(of: directory.file("shared.sqlite"))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let me = getpid()
        // Half made by a process that is gone; half made by this one a moment ago (kept: it may
        // be renamed any time now); half made by this one, but long ago (abandoned); made by a
        // process that died after making it (no reader); and one this process reads.
        try makePipe("\(Self.deadPID)-1.new", in: folder)
        try makePipe("\(me)-2.new", in: folder)
        try makePipe("\(me)-3.new", in: folder, age: Int(WakeChannel.abandonedAfter) + 60)
        try makePipe("\(Self.deadPID)-4.fifo", in: folder)
        let channel = WakeChannel(file: directory.file("shared.sqlite"), wake: {}, look: {}, finished: {})
        let reader = try #require(channel)
        defer { reader.close() }
        // Opening the channel cleaned up: what is left is the live pipes.
        let readerName = URL(fileURLWithPath: reader.path).lastPathComponent
        #expect(try names(in: folder) == ["\(me)-2.new", readerName])
        WakeChannel.removeStale(in: folder)
        #expect(try names(in: folder) == ["\(me)-2.new", readerName])
        // The same pipe once it is old enough counts as abandoned.
        WakeChannel.removeStale(in: folder, now: time(nil) + WakeChannel.abandonedAfter + 1)
        #expect(try names(in: folder) == [readerName])
    }

    @Test func aByteInThePipeWakesItsReaderUntilItIsClosed() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("shared.sqlite")
        let woken = DispatchSemaphore(value: 0)
        let channel = WakeChannel(file: file, wake: { woken.signal() }, look: {}, finished: {})
        let reader = try #require(channel)
        // Another process's commit: one byte in every pipe of the folder.
        WakeChannel.announce(folder: WakeChannel.folder(of: file), skipping: nil)
        #expect(woken.wait(timeout: .now() + 10) == .success)
        // Merged or not, every wake-up is read: the next one wakes the reader again.
        WakeChannel.announce(folder: WakeChannel.folder(of: file), skipping: nil)
        #expect(woken.wait(timeout: .now() + 10) == .success)
        // Closed, its pipe is gone: a writer finds no one to wake.
        reader.close()
        #expect(WakeChannel.fifoNames(in: WakeChannel.folder(of: file)).isEmpty)
    }

    @Test func aQuietPipeIsLookedAtAfterItsIntervalAndClosingWaitsForTheThreadToEnd() throws {
        let directory = try TemporaryDirectory()
        let looked = DispatchSemaphore(value: 0)
        let finished = LockedState(0)
        let channel = WakeChannel(
            file: directory.file("shared.sqlite"), wake: {}, look: { looked.signal() },
            finished: { finished.withLock { $0 += 1 } })
        let reader = try #require(channel)
        // An hour, then five milliseconds: the new interval takes effect at once, not after the
        // hour (the suite's time limit would end the test first).
        reader.lookInterval = .seconds(3_600)
        reader.lookInterval = .milliseconds(5)
        #expect(reader.lookInterval == .milliseconds(5))
        #expect(looked.wait(timeout: .now() + 10) == .success)
        // Looked at again while it stays quiet.
        #expect(looked.wait(timeout: .now() + 10) == .success)
        // Closing returns once the thread ran `finished` (once), not before.
        reader.close(waiting: true)
        #expect(finished.withLock { $0 } == 1)
        reader.close(waiting: true)
        #expect(finished.withLock { $0 } == 1)
    }

    /// Sets the modification time of `path` to `age` seconds ago.
    func age(_ path: String, by age: Int) {
        let then = time(nil) - age
        var times = [timeval(tv_sec: then, tv_usec: 0), timeval(tv_sec: then, tv_usec: 0)]
        #expect(utimes(path, &times) == 0)
    }

    /// A writer lists the folder again only once it changed: a reader that comes after the
    /// writer's listing (its pipe's rename changes the folder) is woken by the next commit.
    @Test func aReaderThatComesAfterTheFolderWasListedIsWokenByTheNextCommit() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("shared.sqlite")
        let folder = WakeChannel.folder(of: file)
        let first = DispatchSemaphore(value: 0)
        let firstChannel = WakeChannel(file: file, wake: { first.signal() }, look: {}, finished: {})
        let firstReader = try #require(firstChannel)
        defer { firstReader.close() }
        // Settled long ago: the listing is kept from this commit on.
        age(folder, by: 60)
        WakeChannel.announce(folder: folder, skipping: nil)
        #expect(first.wait(timeout: .now() + 10) == .success)
        let second = DispatchSemaphore(value: 0)
        let secondChannel = WakeChannel(file: file, wake: { second.signal() }, look: {}, finished: {})
        let secondReader = try #require(secondChannel)
        defer { secondReader.close() }
        WakeChannel.announce(folder: folder, skipping: nil)
        #expect(second.wait(timeout: .now() + 10) == .success)
        #expect(first.wait(timeout: .now() + 10) == .success)
    }

    @Test func aWriterDeletesThePipeOfAReaderThatDied() throws {
        let directory = try TemporaryDirectory()
        let folder = WakeChannel.folder(of: directory.file("shared.sqlite"))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try makePipe("\(Self.deadPID)-5.fifo", in: folder)
        WakeChannel.announce(folder: folder, skipping: nil)
        #expect(try names(in: folder).isEmpty)
    }

    /// A writer keeps a pipe open from one commit to the next: when its reader goes, the next
    /// write finds no reader (`EPIPE`, no `SIGPIPE` for the process), and the writer deletes it.
    @Test func aWriterDeletesAPipeItKeptOpenOnceItsReaderIsGone() throws {
        let directory = try TemporaryDirectory()
        let folder = WakeChannel.folder(of: directory.file("shared.sqlite"))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try makePipe("\(getpid())-7.fifo", in: folder)
        let reader = open("\(folder)/\(getpid())-7.fifo", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        age(folder, by: 60)
        WakeChannel.announce(folder: folder, skipping: nil)
        var byte: UInt8 = 0
        #expect(read(reader, &byte, 1) == 1)
        // The reader closes without removing its pipe, as a process killed would.
        close(reader)
        #expect(try names(in: folder) == ["\(getpid())-7.fifo"])
        WakeChannel.announce(folder: folder, skipping: nil)
        #expect(try names(in: folder).isEmpty)
    }
}
