// swift-tools-version: 6.3
// The oldest toolchain this package was built and tested with. The code needs at least Swift 6.2
// (the tests use `weak let` and exit tests); see CONTRIBUTING.md.
import PackageDescription

let package = Package(
    name: "swift-livedata",
    // iOS 17 and its siblings: the floor that the repository layer's Observation support needs.
    platforms: [
        .iOS(.v17),
        .macOS(.v14),
        .tvOS(.v17),
        .watchOS(.v10),
        .visionOS(.v1),
    ],
    products: [
        .library(name: "LiveData", targets: ["LiveData"]),
        .library(name: "LiveRepository", targets: ["LiveRepository"]),
        .library(name: "LiveSocial", targets: ["LiveSocial"]),
        .library(name: "LiveSocialServer", targets: ["LiveSocialServer"]),
        .library(name: "LiveSocialWire", targets: ["LiveSocialWire"]),
        .library(name: "LiveSocialNetwork", targets: ["LiveSocialNetwork"]),
    ],
    // Each target lists every module of this package that its sources import, even one that
    // comes in through another dependency: an import must not rely on how SwiftPM happens to
    // order or expose the build.
    targets: [
        // Layer 1: the observable data holder.
        .target(name: "LiveData"),

        // Layer 2: the repository layer. The system SQLite library (the SDK's on Apple platforms).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The generic engine: SQLite cache, live objects and live collections.
        .target(name: "LiveRepository", dependencies: ["LiveData", "CSQLite"]),
        // The social and chat domain: models, the remote API protocol, repositories.
        .target(name: "LiveSocial", dependencies: ["LiveRepository", "LiveData"]),
        // An in-process server implementing the remote API, for the sample and the tests.
        .target(name: "LiveSocialServer", dependencies: ["LiveSocial", "LiveRepository", "LiveData"]),
        // The JSON wire form of the remote API, shared by the network client and a server (Foundation only).
        .target(name: "LiveSocialWire", dependencies: ["LiveSocial", "LiveRepository"]),
        // The remote API over HTTP and Server-Sent Events (Foundation only; FoundationNetworking on Linux).
        .target(name: "LiveSocialNetwork", dependencies: ["LiveSocialWire", "LiveSocial", "LiveRepository", "LiveData"]),

        // Layer 3: the terminal sample. View models and the app's services (no terminal code).
        .target(
            name: "SampleApp",
            dependencies: ["LiveData", "LiveRepository", "LiveSocial", "LiveSocialServer", "LiveSocialNetwork"],
            path: "Samples/SampleApp"),
        // Views (lifecycle owners), the screen and the keyboard (no repository code).
        .target(name: "SampleTerminal", dependencies: ["SampleApp", "LiveData"], path: "Samples/SampleTerminal"),
        // The executable: reads its options and runs the terminal app.
        .executableTarget(
            name: "LiveDataSample", dependencies: ["SampleTerminal", "SampleApp"], path: "Samples/LiveDataSample"),

        // Helpers shared by the test targets (a seeded generator, an awaitable delivery log).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // A second process for the tests that need one on a shared file (not part of the sample).
        .executableTarget(
            name: "LiveTestHelper", dependencies: ["LiveRepository", "LiveSocial", "LiveSocialServer", "TestSupport"],
            path: "Tests/Helpers/LiveTestHelper"),
        .testTarget(name: "LiveDataTests", dependencies: ["LiveData", "TestSupport"]),
        // The cross-process tests depend on `LiveTestHelper` so that it is built first.
        .testTarget(
            name: "LiveRepositoryTests",
            dependencies: ["LiveRepository", "LiveData", "CSQLite", "TestSupport", "LiveTestHelper"]),
        .testTarget(
            name: "LiveSocialTests",
            dependencies: ["LiveSocial", "LiveSocialServer", "LiveRepository", "LiveData", "TestSupport", "LiveTestHelper"]),
        .testTarget(
            name: "LiveSocialServerTests",
            dependencies: ["LiveSocialServer", "LiveSocial", "LiveRepository", "TestSupport", "LiveTestHelper"]),
        .testTarget(name: "LiveSocialWireTests", dependencies: ["LiveSocialWire", "LiveSocial", "LiveRepository"]),
        .testTarget(
            name: "LiveSocialNetworkTests",
            dependencies: ["LiveSocialNetwork", "LiveSocialWire", "LiveSocial", "LiveRepository", "LiveData", "TestSupport"]),
        .testTarget(
            name: "SampleAppTests",
            dependencies: [
                "SampleApp", "SampleTerminal", "LiveData", "LiveRepository", "LiveSocial", "LiveSocialServer",
                "TestSupport",
            ]),
        // Runs the built executable with scripted input; depends on it so that it is built first.
        // It reads the data folder's SQLite files afterwards with `LiveRepository`.
        .testTarget(name: "SampleEndToEndTests", dependencies: ["LiveDataSample", "LiveRepository", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
