// swift-tools-version:6.2
import PackageDescription

// SectionKit's benchmarks as the Swift server ecosystem keeps them (package-benchmark, as
// swift-nio does): a package of its own, so that the library itself depends on nothing.
// Run from this folder: `swift package benchmark`; the thresholds CI checks are in `Thresholds/`
// (see the README's "Benchmarks" section and Docs/Performance.md).
let package = Package(
  name: "SectionKitBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "SectionKit", path: "../"),
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "SectionKitBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "SectionKit", package: "SectionKit"),
        .product(name: "SectionKitStreaming", package: "SectionKit"),
        .product(name: "SectionKitTesting", package: "SectionKit"),
      ],
      path: "Benchmarks/SectionKitBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
  ],
  swiftLanguageModes: [.v6]
)
