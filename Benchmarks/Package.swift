// swift-tools-version: 6.3
// 6.3: the manifest of ordo-one/benchmark 1.38.1, a dependency, declares tools version 6.3, so
// no older toolchain can resolve this package.
import PackageDescription

// A package of its own, so that LiveData is measured the way a client sees it:
// imported from another package, with cross-module generic specialization (or
// the lack of it) counting. Build products stay in Benchmarks/.build.
// Our own targets build with warnings as errors (CI relies on it); the dependencies do not.
let strict: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "LiveDataBenchmarks",
    // The library's floor, and nothing here may need more: Synchronization's `Atomic` and
    // `Mutex` need macOS 15 / iOS 18 (see StopFlag). The executables are command-line tools, run
    // on Linux and macOS.
    platforms: [
        .macOS(.v14),
        .iOS(.v17),
    ],
    dependencies: [
        .package(name: "swift-livedata", path: ".."),
        // `SpawnedProcess`: CrossProcessVersus and RepositoryVersus start child processes with
        // `posix_spawn`, not Foundation's `Process.run()`, which sometimes crashes on Linux in Swift 6.3.1.
        .package(path: "../Tools/ProcessLauncher"),
        .package(url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
    ],
    targets: [
        // Bytes in use on the malloc heap (mallinfo2 on glibc, malloc_zone_statistics on Darwin).
        .target(name: "HeapStats", cSettings: [.unsafeFlags(["-Werror"])]),
        // Shared by the executables: number formatting for the printed tables, medians and
        // duration conversions, the seeded random number generator, progress lines and scratch folders.
        .target(name: "BenchmarkSupport", swiftSettings: strict),
        // The three contenders and the scenarios run against each of them.
        .target(
            name: "Contenders",
            dependencies: [
                "BenchmarkSupport",
                "HeapStats",
                .product(name: "LiveData", package: "swift-livedata"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            swiftSettings: strict
        ),
        // `swift run -c release LiveDataVersus`: the side-by-side table.
        .executableTarget(
            name: "LiveDataVersus",
            dependencies: ["Contenders", "BenchmarkSupport"],
            swiftSettings: strict
        ),
        // `swift package benchmark`: the same scenarios under ordo-one/benchmark.
        .executableTarget(
            name: "LiveDataBenchmarks",
            dependencies: [
                "Contenders",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LiveDataBenchmarks",
            swiftSettings: strict,
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        // `swift run -c release RepositoryVersus`: the repository layer against GRDB's ValueObservation.
        .executableTarget(
            name: "RepositoryVersus",
            dependencies: [
                .product(name: "LiveRepository", package: "swift-livedata"),
                .product(name: "LiveSocial", package: "swift-livedata"),
                .product(name: "GRDB", package: "GRDB.swift"),
                "BenchmarkSupport",
                .product(name: "ProcessLauncher", package: "ProcessLauncher"),
            ],
            swiftSettings: strict
        ),
        // `swift run -c release ChatVersus`: LiveSocial's message collection opened in a channel of
        // 1,000,000 messages, and its catch-up after missed messages, against the embedded server.
        .executableTarget(
            name: "ChatVersus",
            dependencies: [
                .product(name: "LiveSocial", package: "swift-livedata"),
                .product(name: "LiveSocialServer", package: "swift-livedata"),
                .product(name: "LiveRepository", package: "swift-livedata"),
                "BenchmarkSupport",
            ],
            swiftSettings: strict
        ),
        // `swift run -c release CrossProcessVersus`: live across processes. It runs itself again
        // as the writing process (and as idle watchers), and puts this package's LiveStore next to
        // GRDB's ValueObservation and a naive polling loop in the watching one.
        .executableTarget(
            name: "CrossProcessVersus",
            dependencies: [
                .product(name: "LiveRepository", package: "swift-livedata"),
                .product(name: "LiveSocial", package: "swift-livedata"),
                .product(name: "GRDB", package: "GRDB.swift"),
                "BenchmarkSupport",
                .product(name: "ProcessLauncher", package: "ProcessLauncher"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
