import Foundation
import TestSupport
@testable import LiveRepository
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When a wake-up folder's last listing is used again, and when the folder is read anew.
@Suite struct PipeRosterTests {
    /// A folder whose modification time is set to `seconds` ago, `nanoseconds` past the second.
    private func folder(in directory: TemporaryDirectory, modifiedSecondsAgo seconds: Int, nanoseconds: Int = 250_000_000) throws -> String {
        let path = directory.file("shared.sqlite-wake").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        setModified(path, secondsAgo: seconds, nanoseconds: nanoseconds)
        return path
    }

    private func setModified(_ path: String, secondsAgo seconds: Int, nanoseconds: Int = 250_000_000) {
        let then = timespec(tv_sec: time(nil) - seconds, tv_nsec: nanoseconds)
        var times = [then, then]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    /// A roster, with a count of the folder reads and pipe opens it made. Its pipes are opened
    /// as files of their own in `scratch` (written to by nothing here), so that a descriptor the
    /// roster closed is told from its number reused by a later open.
    private final class Counted {
        var roster = PipeRoster()
        var reads = 0
        var opens = 0
        /// What each listing returns; by default one new name per read.
        var listing: (() -> [String])?
        /// The inode of the file each pipe was opened on, by the pipe's path.
        private var inodes: [String: UInt64] = [:]
        private let scratch: String

        init(scratch: TemporaryDirectory) {
            self.scratch = scratch.url.path
        }

        func pipes(in folder: String) -> [PipeRoster.Pipe] {
            roster.pipes(in: folder, list: { _ in
                reads += 1
                return listing?() ?? ["reader-\(reads).fifo"]
            }, open: { path in
                opens += 1
                let descriptor = open("\(scratch)/opened-\(opens)", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { return nil }
                inodes[path] = Self.inode(of: descriptor)
                return descriptor
            })
        }

        func names(in folder: String) -> [String] {
            pipes(in: folder).map { URL(fileURLWithPath: $0.path).lastPathComponent }
        }

        /// Whether `pipe`'s descriptor is still open on the file it was opened on (its number may
        /// have been given to another file since it was closed: tests run side by side).
        func isOpen(_ pipe: PipeRoster.Pipe) -> Bool {
            Self.inode(of: pipe.descriptor).map { $0 == inodes[pipe.path] } ?? false
        }

        private static func inode(of descriptor: Int32) -> UInt64? {
            var status = stat()
            return fstat(descriptor, &status) == 0 ? UInt64(status.st_ino) : nil
        }
    }

    @Test func aSettledFolderIsReadOnceAndItsListingUsedUntilItChanges() throws {
        let directory = try TemporaryDirectory()
        let path = try folder(in: directory, modifiedSecondsAgo: 60)
        let counted = Counted(scratch: directory)
        #expect(counted.names(in: path) == ["reader-1.fifo"])
        #expect(counted.names(in: path) == ["reader-1.fifo"])
        #expect(counted.reads == 1)
        // A pipe made or deleted changes the folder's time: read again.
        setModified(path, secondsAgo: 30)
        #expect(counted.names(in: path) == ["reader-2.fifo"])
        #expect(counted.names(in: path) == ["reader-2.fifo"])
        #expect(counted.reads == 2)
        counted.roster.forget(path)
        #expect(counted.names(in: path) == ["reader-3.fifo"])
    }

    @Test func aFolderNotChangedLongBeforeItsListingIsReadEachTime() throws {
        let directory = try TemporaryDirectory()
        // Changed after the listing began (here, by a clock an hour ahead): another change in the
        // same tick could leave the time as it is, so no listing of it is trusted.
        let path = try folder(in: directory, modifiedSecondsAgo: -3_600)
        let counted = Counted(scratch: directory)
        _ = counted.names(in: path)
        _ = counted.names(in: path)
        #expect(counted.reads == 2)
    }

    @Test func wholeSecondTimesCountAsSettledOnlyAfterTwoSeconds() {
        let listedAt = timespec(tv_sec: 1_000, tv_nsec: 500_000_000)
        // Times with a fraction of a second: settled after 50 ms.
        #expect(PipeRoster.isSettled(timespec(tv_sec: 1_000, tv_nsec: 400_000_000), at: listedAt))
        #expect(!PipeRoster.isSettled(timespec(tv_sec: 1_000, tv_nsec: 470_000_000), at: listedAt))
        // Whole seconds (a file system that keeps no fraction): after two seconds.
        #expect(!PipeRoster.isSettled(timespec(tv_sec: 999, tv_nsec: 0), at: listedAt))
        #expect(PipeRoster.isSettled(timespec(tv_sec: 998, tv_nsec: 0), at: listedAt))
    }

    @Test func aMissingFolderHasNoPipesAndIsNotRead() throws {
        let directory = try TemporaryDirectory()
        let counted = Counted(scratch: directory)
        #expect(counted.names(in: directory.file("nothing-wake").path).isEmpty)
        #expect(counted.reads == 0)
    }

    @Test func aPipeStillListedIsOpenedOnceAndOneNoLongerListedIsClosed() throws {
        let directory = try TemporaryDirectory()
        let path = try folder(in: directory, modifiedSecondsAgo: 60)
        let counted = Counted(scratch: directory)
        var names = ["a.fifo", "b.fifo"]
        counted.listing = { names }
        let first = counted.pipes(in: path)
        #expect(first.map(\.path) == ["\(path)/a.fifo", "\(path)/b.fifo"])
        #expect(counted.opens == 2)
        // b's reader left and c's came: a is kept open as it was, b closed, c opened.
        names = ["a.fifo", "c.fifo"]
        setModified(path, secondsAgo: 30)
        let second = counted.pipes(in: path)
        #expect(second.map(\.path) == ["\(path)/a.fifo", "\(path)/c.fifo"])
        #expect(second[0] == first[0])
        #expect(counted.opens == 3)
        #expect(counted.isOpen(first[0]))
        #expect(!counted.isOpen(first[1]))
        // A pipe whose reader is gone is dropped and closed; forgetting closes the rest.
        counted.roster.drop(second[1], of: path)
        #expect(!counted.isOpen(second[1]))
        #expect(counted.pipes(in: path) == [second[0]])
        counted.roster.forget(path)
        #expect(!counted.isOpen(second[0]))
    }

    @Test func aFolderDeletedAndMadeAgainIsListedAgain() throws {
        let directory = try TemporaryDirectory()
        let path = try folder(in: directory, modifiedSecondsAgo: 60)
        var times = [timespec(tv_sec: time(nil) - 60, tv_nsec: 250_000_000)]
        times.append(times[0])
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let counted = Counted(scratch: directory)
        let first = counted.pipes(in: path)
        #expect(counted.names(in: path) == ["reader-1.fifo"])
        #expect(counted.reads == 1)
        // Made again with the very time it had: only the old folder's missing links tell.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(counted.names(in: path) == ["reader-2.fifo"])
        #expect(!counted.isOpen(first[0]))
    }
}
