import Foundation
import SampleApp
import TestSupport
import Testing

/// Who is signed in on a data folder: a shared lock on each running app's `session.lock`.
@Suite(.timeLimit(.minutes(3)))
struct SampleSessionTests {
    @Test func aSessionCountsAsSignedInUntilItEnds() throws {
        let folder = try TemporaryDirectory()
        #expect(SampleSession.signedInUsers(in: folder.url) == [])
        let alan = try SampleSession.begin(SampleConfiguration(dataFolder: folder.url, userId: "alan"))
        #expect(alan.userId == "alan")
        #expect(alan.dataFolder == folder.url)
        #expect(FileManager.default.fileExists(atPath: folder.file("users/alan/session.lock").path))
        let ada = try SampleSession.begin(SampleConfiguration(dataFolder: folder.url, userId: "ada"))
        #expect(SampleSession.signedInUsers(in: folder.url) == ["ada", "alan"])

        alan.end()
        #expect(SampleSession.signedInUsers(in: folder.url) == ["ada"])
        alan.end()
        #expect(SampleSession.signedInUsers(in: folder.url) == ["ada"], "ending twice does nothing")
        ada.end()
        #expect(SampleSession.signedInUsers(in: folder.url) == [])
    }

    @Test func twoAppsOfOneUserMayRunAtOnce() throws {
        let folder = try TemporaryDirectory()
        let configuration = SampleConfiguration(dataFolder: folder.url, userId: "ada")
        let first = try SampleSession.begin(configuration)
        let second = try SampleSession.begin(configuration)
        first.end()
        #expect(SampleSession.signedInUsers(in: folder.url) == ["ada"], "the second app still runs")
        second.end()
        #expect(SampleSession.signedInUsers(in: folder.url) == [])
    }

    @Test func aReleasedSessionEndsWithoutBeingAsked() throws {
        let folder = try TemporaryDirectory()
        var session: SampleSession? = try SampleSession.begin(SampleConfiguration(dataFolder: folder.url, userId: "tim"))
        #expect(SampleSession.signedInUsers(in: folder.url) == ["tim"])
        session = nil
        #expect(session == nil)
        #expect(SampleSession.signedInUsers(in: folder.url) == [])
    }

    @Test func aUserFolderThatCannotBeMadeIsADataFolderError() throws {
        let folder = try TemporaryDirectory()
        try Data("a file".utf8).write(to: folder.file("users"))
        let error = #expect(throws: SampleError.self) {
            try SampleSession.begin(SampleConfiguration(dataFolder: folder.url, userId: "ada"))
        }
        guard case .dataFolder(let path, _) = error else {
            Issue.record("not a data folder error: \(String(describing: error))")
            return
        }
        #expect(path == folder.file("users/ada").path)
        #expect(SampleSession.signedInUsers(in: folder.url) == [])
    }
}
