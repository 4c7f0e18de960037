// swift-tools-version: 6.1
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
    ],
    targets: [
        .target(name: "LiveData"),
        .testTarget(name: "LiveDataTests", dependencies: ["LiveData"]),
    ],
    swiftLanguageModes: [.v6]
)
