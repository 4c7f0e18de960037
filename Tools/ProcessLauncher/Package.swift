// swift-tools-version: 6.0
import PackageDescription

// `SpawnedProcess`: child processes started with `posix_spawn`, for the packages that start
// processes of their own (Server/: its tests and ServerVersus; Benchmarks/: CrossProcessVersus
// and RepositoryVersus), which depend on it by path. Foundation's `Process.run()` sometimes
// crashes on Linux in Swift 6.3.1 (SpawnedProcess.swift says why). The main package keeps its
// own copy in Tests/TestSupport, since it may depend on no package. No dependencies; built with
// warnings as errors, as the packages that use it build their own targets.
let package = Package(
    name: "ProcessLauncher",
    platforms: [
        .macOS(.v14)
    ],
    products: [
        .library(name: "ProcessLauncher", targets: ["ProcessLauncher"])
    ],
    targets: [
        .target(name: "ProcessLauncher", swiftSettings: [.unsafeFlags(["-warnings-as-errors"])])
    ],
    swiftLanguageModes: [.v6]
)
