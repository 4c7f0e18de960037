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

    /// A roster and a count of the folder reads it made.
    private final class Counted {
        var roster = PipeRoster()
        var reads = 0
        func names(in folder: String) -> [String] {
            roster.names(in: folder) { _ in
                reads += 1
                return ["reader-\(reads).fifo"]
            }
        }
    }

    @Test func aSettledFolderIsReadOnceAndItsListingUsedUntilItChanges() throws {
        let directory = try TemporaryDirectory()
        let path = try folder(in: directory, modifiedSecondsAgo: 60)
        let counted = Counted()
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
        let counted = Counted()
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
        let counted = Counted()
        #expect(counted.names(in: directory.file("nothing-wake").path).isEmpty)
        #expect(counted.reads == 0)
    }
}
