import Foundation
import SampleApp
import TestSupport
import Testing

/// Where the sample keeps its data: the `--data` flag, then the environment variable, then the
/// per-user folder.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct SampleDataFolderTests {
    let home = URL(fileURLWithPath: "/home/tester", isDirectory: true)
    let everything = [
        "LIVEDATA_SAMPLE_DATA": "/data/from-env", "XDG_DATA_HOME": "/data/xdg", "HOME": "/home/elsewhere",
    ]
    var currentFolder: String { FileManager.default.currentDirectoryPath }

    @Test func theEnvironmentVariableIsNamed() {
        #expect(SampleDataFolder.environmentVariable == "LIVEDATA_SAMPLE_DATA")
    }

    @Test func theFlagBeatsEverythingElse() {
        let url = SampleDataFolder.resolve(flag: "/data/from-flag", environment: everything, home: home)
        #expect(url.isFileURL)
        #expect(url.path == "/data/from-flag")
    }

    @Test func theEnvironmentVariableBeatsTheUserFolder() {
        #expect(SampleDataFolder.resolve(flag: nil, environment: everything, home: home).path == "/data/from-env")
        #expect(SampleDataFolder.resolve(flag: "", environment: everything, home: home).path == "/data/from-env",
                "an empty flag counts as absent")
    }

    #if canImport(Darwin)
    @Test func theApplicationSupportFolderComesLast() {
        #expect(SampleDataFolder.resolve(flag: nil, environment: [:], home: home).path
            == "/home/tester/Library/Application Support/LiveDataSample")
        let real = SampleDataFolder.resolve(flag: nil, environment: [:])
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
        #expect(real == support?.appendingPathComponent("LiveDataSample"))
    }
    #else
    @Test func xdgDataHomeBeatsTheHomeDefault() {
        var environment = everything
        environment["LIVEDATA_SAMPLE_DATA"] = nil
        #expect(SampleDataFolder.resolve(flag: nil, environment: environment, home: home).path
            == "/data/xdg/livedata-sample")
        environment["LIVEDATA_SAMPLE_DATA"] = ""
        #expect(SampleDataFolder.resolve(flag: nil, environment: environment, home: home).path
            == "/data/xdg/livedata-sample", "an empty variable counts as absent")
    }

    @Test func theHomeDefaultComesLast() {
        #expect(SampleDataFolder.resolve(flag: nil, environment: [:], home: home).path
            == "/home/tester/.local/share/livedata-sample")
        let empty = ["LIVEDATA_SAMPLE_DATA": "", "XDG_DATA_HOME": ""]
        #expect(SampleDataFolder.resolve(flag: "", environment: empty, home: home).path
            == "/home/tester/.local/share/livedata-sample")
    }

    @Test func theRealHomeIsTheOneEveryPlatformHas() {
        #expect(SampleDataFolder.resolve(flag: nil, environment: [:]).path
            == URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share/livedata-sample").path)
    }
    #endif

    @Test func aRelativeFlagIsTakenFromTheCurrentFolder() {
        let url = SampleDataFolder.resolve(flag: "sample-data", environment: everything, home: home)
        #expect(url.isFileURL)
        #expect(url.path == currentFolder + "/sample-data")
        #expect(url.absoluteURL.path == currentFolder + "/sample-data")
        #expect(url.path.hasPrefix("/"))
    }

    @Test func aRelativeEnvironmentVariableIsTakenFromTheCurrentFolder() {
        let url = SampleDataFolder.resolve(flag: nil, environment: ["LIVEDATA_SAMPLE_DATA": "env-data"], home: home)
        #expect(url.path == currentFolder + "/env-data")
    }

    @Test func pathsAreStandardized() {
        #expect(SampleDataFolder.resolve(flag: "/data/./one/../two", environment: [:], home: home).path == "/data/two")
        #expect(SampleDataFolder.resolve(flag: "nested/../flat", environment: [:], home: home).path
            == currentFolder + "/flat")
        #expect(SampleDataFolder.resolve(flag: nil, environment: ["LIVEDATA_SAMPLE_DATA": "/env/x/../y"], home: home).path
            == "/env/y")
    }

    @Test func resetDeletesTheSamplesFilesOnly() throws {
        let folder = try TemporaryDirectory()
        let files = FileManager.default
        for name in ["server.sqlite", "server.sqlite-wal", "cache.sqlite", "read-markers.json", "notes.txt"] {
            try Data(name.utf8).write(to: folder.file(name))
        }
        for path in ["users/ada", "legacy", "legacy-2", "photos"] {
            try files.createDirectory(at: folder.file(path), withIntermediateDirectories: true)
        }
        try Data("cache".utf8).write(to: folder.file("users/ada/cache.sqlite"))
        try SampleDataFolder.reset(folder.url)
        #expect(folder.contents.sorted() == ["layout.lock", "notes.txt", "photos"])
        try SampleDataFolder.reset(folder.file("missing"))
        #expect(!files.fileExists(atPath: folder.file("missing").path), "a missing folder is not made")
    }

    @Test func resetRefusesWhileAnAppRunsOnTheFolder() throws {
        let folder = try TemporaryDirectory()
        try Data("server".utf8).write(to: folder.file("server.sqlite"))
        let session = try SampleSession.begin(SampleConfiguration(dataFolder: folder.url, userId: "alan"))
        #expect(throws: SampleError.signedIn(["alan"])) { try SampleDataFolder.reset(folder.url) }
        #expect(SampleError.signedIn(["alan"]).description
            == "cannot start over while alan is signed in on this data folder: quit that app first.")
        #expect(folder.contents.contains("server.sqlite"), "nothing was deleted")
        session.end()
        try SampleDataFolder.reset(folder.url)
        #expect(!folder.contents.contains("server.sqlite"))
    }
}
