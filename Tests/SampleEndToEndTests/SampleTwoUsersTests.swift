// Runs the built sample as child processes: macOS and Linux only (iOS and its siblings have no
// `Process`, and no command line).
#if os(macOS) || os(Linux)
import Foundation
import Testing
import TestSupport

/// Two users, each in their own app, on one data folder: what one does shows up on the other's
/// screen, and each keeps their own cache.
@Suite(.timeLimit(.minutes(3)))
struct SampleTwoUsersTests {
    /// The apps of `ada` and then `alan` on one new folder, each showing its channel list (the
    /// marks stay before it, for ``SampleProcess/openChat(_:)``).
    func launchBoth(_ folder: TemporaryDirectory) async throws -> (ada: SampleProcess, alan: SampleProcess) {
        let ada = try SampleProcess(data: folder, latency: 0, arguments: ["--user", "ada"])
        try await ada.waitFor(SampleProcess.channelsFresh, movingMark: false)
        let alan = try SampleProcess(data: folder, latency: 0, arguments: ["--user", "alan"])
        try await alan.waitFor("notice: also signed in on this data folder: ada", movingMark: false)
        try await alan.waitFor(SampleProcess.channelsFresh, movingMark: false)
        return (ada, alan)
    }

    @Test func aMessageSentInOneAppShowsInTheOther() async throws {
        let folder = try TemporaryDirectory()
        let (ada, alan) = try await launchBoth(folder)
        try await ada.openChat("general")
        try await alan.openChat("general")

        try await alan.enter("Hello ada, from alan's terminal")
        try await alan.waitForSentLine("alan", "Hello ada, from alan's terminal")
        try await ada.waitForSentLine("alan", "Hello ada, from alan's terminal")

        try await ada.enter("Hi alan, ada here")
        try await alan.waitForSentLine("ada", "Hi alan, ada here")

        #expect(await alan.finish().status == 0)
        #expect(await ada.finish().status == 0)
    }

    @Test func aPostACommentAReactionAndAFollowCrossOver() async throws {
        let folder = try TemporaryDirectory()
        let (ada, alan) = try await launchBoth(folder)
        for app in [ada, alan] {
            try await app.enter("/feed swift")
            try await app.waitFor("· fresh │ N open · type to post")
        }
        try await alan.enter("A post from alan's terminal")
        try await alan.waitForLine("alan's post, posted") { $0 == " 1. alan: A post from alan's terminal" }
        try await ada.waitForLine("alan's post on top of ada's feed") { $0 == " 1. alan: A post from alan's terminal" }
        for app in [ada, alan] {
            try await app.enter("1")
            try await app.waitFor("== Post by alan ==")
            try await app.waitFor("· fresh │ type to comment")
        }

        try await alan.enter("A comment from alan")
        try await ada.waitForLine("alan's comment") { $0 == "    alan: A comment from alan" }
        try await alan.enter("/react tada")
        try await alan.waitForLine("alan's own reaction") { $0 == "  reactions: tada 1*" }
        try await ada.waitForLine("alan's reaction, not ada's") { $0 == "  reactions: tada 1" }

        try await ada.enter("/profile")
        try await ada.waitFor("· fresh │ N open")
        let counts = try #require(ada.outputBeforeMark.split(separator: "\n").last { $0.contains(" following") && $0.contains(" follower") })
        let followers = try #require(Int(counts.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }))
        try await alan.enter("/profile ada")
        try await alan.waitFor("· fresh │ N open · /follow")
        #expect(alan.outputBeforeMark.contains("· /follow to follow"), "alan does not follow ada yet")
        try await alan.enter("/follow")
        try await alan.waitFor("you follow them")
        try await ada.waitForLine("ada's new follower count") { $0.hasPrefix("  \(followers + 1) follower") }

        #expect(await alan.finish().status == 0)
        #expect(await ada.finish().status == 0)
    }

    @Test func eachUsersCacheHoldsOnlyTheirOwnPendingMessages() async throws {
        let folder = try TemporaryDirectory()
        let (ada, alan) = try await launchBoth(folder)
        for (app, user) in [(ada, "ada"), (alan, "alan")] {
            try await app.openChat("general")
            try await app.enter("/offline")
            try await app.enter("Unsent words of \(user)")
            try await app.waitForLine("\(user)'s pending message") { $0.contains("\(user): Unsent words of \(user)") }
        }
        #expect(await alan.finish().status == 0)
        #expect(await ada.finish().status == 0)

        let files = SampleDataFiles(folder: folder)
        for (user, other) in [("ada", "alan"), ("alan", "ada")] {
            let cached = try files.cachedMessages(of: user, in: "general")
            #expect(cached.filter { $0.syncState != "synced" }.map(\.text) == ["Unsent words of \(user)"])
            #expect(!cached.contains { $0.text == "Unsent words of \(other)" }, "\(user)'s cache has nothing of \(other)'s unsent words")
        }
        #expect(try files.serverMessages(in: "general").filter { $0.text.hasPrefix("Unsent words") } == [])
        #expect(!folder.contents.contains("cache.sqlite"), "no cache is shared")
    }
}
#endif
