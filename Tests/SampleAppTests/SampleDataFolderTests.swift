import Foundation
import SampleApp
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
}
