// swift-tools-version: 6.2
// SectionKitPostgres: one changeset stream shared by several servers through PostgreSQL — a durable
// log, one owner per stream, a relay on every instance, clients resuming on any of them.
import PackageDescription

let package = Package(
  name: "SectionKitPostgres",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "SectionKitPostgres", targets: ["SectionKitPostgres"])
  ],
  dependencies: [
    .package(name: "SectionKit", path: "../.."),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
  ],
  targets: [
    .target(
      name: "SectionKitPostgres",
      dependencies: [
        .product(name: "SectionKit", package: "SectionKit"),
        .product(name: "SectionKitStreaming", package: "SectionKit"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The figures of Docs/RunningSeveralServers.md. Not a product.
    .executableTarget(
      name: "sectionkit-pg-bench",
      dependencies: [
        "SectionKitPostgres",
        .product(name: "SectionKit", package: "SectionKit"),
        .product(name: "SectionKitStreaming", package: "SectionKit"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "SectionKitPostgresTests",
      dependencies: [
        "SectionKitPostgres",
        .product(name: "SectionKit", package: "SectionKit"),
        .product(name: "SectionKitStreaming", package: "SectionKit"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
