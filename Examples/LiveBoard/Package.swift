// swift-tools-version: 6.2
// LiveBoard: a SectionKit board served over Server-Sent Events with Hummingbird, followed by browsers.
import PackageDescription

let package = Package(
  name: "LiveBoard",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "live-board", targets: ["live-board"])
  ],
  dependencies: [
    .package(name: "SectionKit", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
  ],
  targets: [
    .target(
      name: "LiveBoard",
      dependencies: [
        .product(name: "SectionKit", package: "SectionKit"),
        .product(name: "SectionKitStreaming", package: "SectionKit"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ]
    ),
    .executableTarget(
      name: "live-board",
      dependencies: ["LiveBoard"]
    ),
    .testTarget(
      name: "LiveBoardTests",
      dependencies: [
        "LiveBoard",
        .product(name: "SectionKitStreaming", package: "SectionKit"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]
    ),
  ]
)
