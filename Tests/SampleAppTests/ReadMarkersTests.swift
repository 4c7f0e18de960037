import Foundation
import LiveData
import SampleApp
import TestSupport
import Testing

/// The read markers: what the user has read of each channel, kept in a small JSON file.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ReadMarkersTests {
    @Test func aMissingFileStartsWithNoMarkersAndNoProblem() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("read-markers.json")
        let markers = ReadMarkers(url: url)
        #expect(markers.url == url)
        #expect(markers.counts.data == [:])
        #expect(markers.problem.data == nil)
        #expect(markers.readCount(of: "general") == 0)
        #expect(!FileManager.default.fileExists(atPath: url.path), "nothing is written before a marker is set")
    }

    @Test func markersSurviveARoundTripThroughTheFile() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("read-markers.json")
        let markers = ReadMarkers(url: url)
        markers.markRead("random", messageCount: 3)
        markers.markRead("general", messageCount: 12)
        #expect(markers.readCount(of: "general") == 12)
        #expect(markers.counts.data == ["general": 12, "random": 3])
        #expect(try String(contentsOf: url, encoding: .utf8) == #"{"general":12,"random":3}"#)

        let reopened = ReadMarkers(url: url)
        #expect(reopened.counts.data == ["general": 12, "random": 3])
        #expect(reopened.readCount(of: "random") == 3)
        #expect(reopened.readCount(of: "keynote") == 0)
        #expect(reopened.problem.data == nil)

        reopened.markRead("general", messageCount: 15)
        #expect(ReadMarkers(url: url).counts.data == ["general": 15, "random": 3])
    }

    @Test func markersWithoutAFileStayInMemory() throws {
        let markers = ReadMarkers(url: nil)
        let counts = markers.counts.record()
        markers.markRead("general", messageCount: 4)
        #expect(markers.readCount(of: "general") == 4)
        #expect(counts.values == [[:], ["general": 4]])
        #expect(markers.problem.data == nil)
    }

    @Test func markingTheSameCountAgainDeliversNothingAndWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("read-markers.json")
        let markers = ReadMarkers(url: url)
        let counts = markers.counts.record()
        markers.markRead("general", messageCount: 5)
        #expect(counts.values == [[:], ["general": 5]])

        try FileManager.default.removeItem(at: url)
        markers.markRead("general", messageCount: 5)
        #expect(counts.values == [[:], ["general": 5]], "the same marker is not delivered again")
        #expect(!FileManager.default.fileExists(atPath: url.path), "nor saved again")

        markers.markRead("general", messageCount: 6)
        markers.markRead("general", messageCount: 2)
        #expect(counts.values == [[:], ["general": 5], ["general": 6], ["general": 2]])
        #expect(ReadMarkers(url: url).counts.data == ["general": 2])
    }

    @Test func anUnreadableFileIsMovedAsideAndReported() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("read-markers.json")
        try Data("not json at all".utf8).write(to: url)
        let markers = ReadMarkers(url: url)

        #expect(markers.counts.data == [:])
        let problem = try #require(markers.problem.data)
        #expect(problem.contains("unreadable"))
        #expect(problem.contains("read-markers.json.unreadable"))
        let aside = folder.file("read-markers.json.unreadable")
        #expect(!FileManager.default.fileExists(atPath: url.path), "the file is moved, not left in place")
        #expect(try String(contentsOf: aside, encoding: .utf8) == "not json at all", "never overwritten")

        markers.markRead("general", messageCount: 7)
        #expect(ReadMarkers(url: url).counts.data == ["general": 7])
        #expect(try String(contentsOf: aside, encoding: .utf8) == "not json at all")
    }

    @Test func aFileOfTheWrongShapeIsUnreadableToo() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("read-markers.json")
        try Data(#"{"general":"twelve"}"#.utf8).write(to: url)
        let markers = ReadMarkers(url: url)
        #expect(markers.counts.data == [:])
        #expect(markers.problem.data != nil)
        #expect(FileManager.default.fileExists(atPath: folder.file("read-markers.json.unreadable").path))
    }

    @Test func anEarlierUnreadableCopyIsReplacedByTheNewOne() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("read-markers.json")
        let aside = folder.file("read-markers.json.unreadable")
        try Data("old garbage".utf8).write(to: aside)
        try Data("new garbage".utf8).write(to: url)
        let markers = ReadMarkers(url: url)
        #expect(markers.problem.data != nil)
        #expect(try String(contentsOf: aside, encoding: .utf8) == "new garbage")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aFailedSaveIsReportedAndTheMarkerStillHolds() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("missing-folder/read-markers.json")
        let markers = ReadMarkers(url: url)
        let problems = markers.problem.record()
        markers.markRead("general", messageCount: 3)
        #expect(markers.readCount(of: "general") == 3)
        let problem = try #require(problems.latest)
        #expect(problem.hasPrefix("could not save read markers: "))
    }
}
