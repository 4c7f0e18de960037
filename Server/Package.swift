// swift-tools-version: 6.2
// 6.2: the tools version of hummingbird 2.28.1's manifest, a dependency.
import PackageDescription

// The network server of swift-livedata: LiveSocialServer's rules behind HTTP and Server-Sent
// Events, with identity (passwords, session tokens) and a per-token rate limit. A package of its
// own so that the main package keeps depending on no Swift package. Build products stay in
// Server/.build. Our own targets build with warnings as errors; the dependencies do not.
let strict: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "LiveDataServer",
    platforms: [
        .macOS(.v14)
    ],
    products: [
        .executable(name: "livedata-server", targets: ["LiveDataServerCommand"]),
        .library(name: "LiveDataServer", targets: ["LiveDataServer"]),
        .executable(name: "ServerVersus", targets: ["ServerVersus"]),
    ],
    dependencies: [
        .package(name: "swift-livedata", path: ".."),
        // `SpawnedProcess`: the tests and ServerVersus start child processes with `posix_spawn`,
        // not Foundation's `Process.run()`, which sometimes crashes on Linux in Swift 6.3.1.
        .package(path: "../Tools/ProcessLauncher"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // The server as a library: identity, routes, streams, limits. The tests start it in process.
        .target(
            name: "LiveDataServer",
            dependencies: [
                "LiveDataPostgres",
                .product(name: "LiveSocial", package: "swift-livedata"),
                .product(name: "LiveSocialServer", package: "swift-livedata"),
                .product(name: "LiveRepository", package: "swift-livedata"),
                .product(name: "LiveSocialWire", package: "swift-livedata"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The PostgreSQL store: LiveSocialServer's `ServerStore` on a shared PostgreSQL database, so
        // that several instances serve one set of users (issue 23).
        .target(
            name: "LiveDataPostgres",
            dependencies: [
                .product(name: "LiveSocial", package: "swift-livedata"),
                .product(name: "LiveSocialServer", package: "swift-livedata"),
                .product(name: "LiveRepository", package: "swift-livedata"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // `livedata-server`: reads its options and runs the server until stopped.
        .executableTarget(
            name: "LiveDataServerCommand",
            dependencies: [
                "LiveDataServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // `ServerVersus quick|full`: the server's send-to-event latency, sends a second and memory
        // per idle stream at N streams, beside a bare Hummingbird broadcast (Server/README.md);
        // `ServerVersus instances URL`: one instance on SQLite, one and two on PostgreSQL.
        .executableTarget(
            name: "ServerVersus",
            dependencies: [
                "LiveDataServer",
                "LiveDataPostgres",
                .product(name: "ProcessLauncher", package: "ProcessLauncher"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "LiveSocial", package: "swift-livedata"),
                .product(name: "LiveSocialServer", package: "swift-livedata"),
                .product(name: "LiveSocialWire", package: "swift-livedata"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        // Helpers both test targets use: running a script to its end, the seeded fault runs, the
        // test cluster's databases and a lock to end a store's connection at a known point.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "LiveDataPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/ServerTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "LiveDataServerTests",
            dependencies: [
                "LiveDataServer",
                "LiveDataPostgres",
                "ServerTestSupport",
                "LiveDataServerCommand",
                .product(name: "ProcessLauncher", package: "ProcessLauncher"),
                .product(name: "LiveSocial", package: "swift-livedata"),
                .product(name: "LiveSocialNetwork", package: "swift-livedata"),
                .product(name: "LiveSocialWire", package: "swift-livedata"),
                .product(name: "LiveSocialServer", package: "swift-livedata"),
                .product(name: "LiveRepository", package: "swift-livedata"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        // The store contract suite on SQLite and on PostgreSQL, and the multi-instance tests.
        .testTarget(
            name: "LiveDataStoreTests",
            dependencies: [
                "LiveDataServer",
                "ServerTestSupport",
                "LiveDataPostgres",
                .product(name: "LiveSocial", package: "swift-livedata"),
                .product(name: "LiveSocialServer", package: "swift-livedata"),
                .product(name: "LiveRepository", package: "swift-livedata"),
                .product(name: "LiveSocialWire", package: "swift-livedata"),
                .product(name: "LiveSocialNetwork", package: "swift-livedata"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
