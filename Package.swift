// swift-tools-version:6.2
import PackageDescription

// SECTIONKIT_INTERNAL_CHECKS compiles the debug-only `_checkInvariants()` calls that run after
// every mutation of providers, the mapping and the coordinator (cached offsets against offsets
// recomputed from scratch, counts against the children, delegates against parents). It is off by
// default because it makes every mutation O(n); `.ci/run` runs the test suite a second time with
// it on by setting the environment variable of the same name.
let internalChecks: [SwiftSetting] =
  Context.environment["SECTIONKIT_INTERNAL_CHECKS"] != nil
  ? [.define("SECTIONKIT_INTERNAL_CHECKS")] : []

let package = Package(
  name: "SectionKit",
  products: [
    .library(name: "SectionKit", targets: ["SectionKit"]),
    .library(name: "SectionKitTesting", targets: ["SectionKitTesting"]),
    .library(name: "SectionKitConsole", targets: ["SectionKitConsole"]),
    .library(name: "SectionKitLayout", targets: ["SectionKitLayout"]),
    .library(name: "SectionKitLayoutBridge", targets: ["SectionKitLayoutBridge"]),
    .library(name: "SectionKitStreaming", targets: ["SectionKitStreaming"]),
    .library(name: "SectionKitConsoleStreaming", targets: ["SectionKitConsoleStreaming"]),
    .executable(name: "sectionkit-demo", targets: ["sectionkit-demo"]),
    .executable(name: "sectionkit-bench", targets: ["sectionkit-bench"]),
  ],
  targets: [
    .target(name: "SectionKit", swiftSettings: internalChecks),
    .target(name: "SectionKitTesting", dependencies: ["SectionKit"]),
    .target(
      name: "SectionKitConsole",
      dependencies: ["SectionKit", "SectionKitLayout", "SectionKitLayoutBridge"]),
    .target(name: "SectionKitLayout", swiftSettings: internalChecks),
    // Sections that choose their own layout: the glue between SectionKit and SectionKitLayout,
    // so that neither depends on the other.
    .target(name: "SectionKitLayoutBridge", dependencies: ["SectionKit", "SectionKitLayout"]),
    // A model's updates as a stream many clients follow: publisher, replay, JSON lines, mirror.
    .target(name: "SectionKitStreaming", dependencies: ["SectionKit"]),
    // A terminal client of a remote list: ConsoleListView following a windowed subscription.
    // Its own product, so that neither SectionKitConsole nor SectionKitStreaming depends on the
    // other.
    .target(
      name: "SectionKitConsoleStreaming",
      dependencies: ["SectionKit", "SectionKitConsole", "SectionKitStreaming"]),
    // The demo's scripts and the example layouts, shared by `sectionkit-demo` and the golden
    // tests. Not a product: nothing here is API, and no library target depends on it.
    .target(
      name: "SectionKitExamples",
      dependencies: [
        "SectionKit", "SectionKitConsole", "SectionKitLayout", "SectionKitLayoutBridge",
        "SectionKitStreaming",
      ]),
    .executableTarget(
      name: "sectionkit-demo",
      dependencies: ["SectionKit", "SectionKitConsole", "SectionKitExamples"]),
    .executableTarget(
      name: "sectionkit-bench",
      dependencies: [
        "SectionKit", "SectionKitConsole", "SectionKitLayout", "SectionKitStreaming",
        "SectionKitTesting",
      ]),
    // The server-style example: an actor-owned model, concurrent writers, clients mirroring the
    // stream, a stale client message answered with an error. Not a product.
    .executableTarget(
      name: "sectionkit-server-example", dependencies: ["SectionKit", "SectionKitStreaming"]),
    // A stand-in for the few UIKit types a `UICollectionView` adapter uses, main-actor isolated as
    // UIKit's are; it checks and replays each batch as UIKit would. Not a product.
    .target(
      name: "UIKitStandIn", dependencies: ["SectionKit", "SectionKitTesting"],
      path: "Tests/UIKitStandIn"),
    .testTarget(
      name: "SectionKitTests",
      dependencies: [
        "SectionKit", "SectionKitConsole", "SectionKitStreaming", "SectionKitTesting",
        "UIKitStandIn",
      ],
      swiftSettings: internalChecks),
    // Compiled the way a Swift 6.2 app target is: every unannotated declaration is isolated to
    // the main actor. `HandlersGuideTests.swift`, `CollectionViewAdapter.swift` and
    // `CollectionViewAdapterTests.swift` are shared with `SectionKitTests` through symbolic
    // links, so the documented shapes compile and run under both default isolations.
    .testTarget(
      name: "SectionKitIsolationTests",
      dependencies: ["SectionKit", "SectionKitTesting", "UIKitStandIn"],
      swiftSettings: [.defaultIsolation(MainActor.self)]),
    // The executables are dependencies so that the tests can run them.
    .testTarget(
      name: "SectionKitStreamingTests",
      dependencies: [
        "SectionKit", "SectionKitStreaming", "SectionKitTesting", "SectionKitConsole",
        "SectionKitConsoleStreaming", "SectionKitExamples", "sectionkit-demo",
        "sectionkit-server-example",
      ]),
    .testTarget(
      name: "SectionKitTestingTests", dependencies: ["SectionKit", "SectionKitTesting"]),
    .testTarget(
      name: "SectionKitConsoleTests",
      dependencies: ["SectionKit", "SectionKitConsole", "SectionKitLayout", "SectionKitExamples"],
      resources: [.copy("Golden")]),
    .testTarget(
      name: "SectionKitLayoutTests",
      dependencies: ["SectionKitLayout", "SectionKitTesting", "SectionKitExamples"],
      resources: [.copy("Golden")],
      swiftSettings: internalChecks),
    .testTarget(
      name: "SectionKitLayoutBridgeTests",
      dependencies: [
        "SectionKit", "SectionKitLayout", "SectionKitLayoutBridge", "SectionKitConsole",
        "SectionKitExamples",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
