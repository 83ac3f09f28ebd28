// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for the text engine, kept in their own package so that
// `swift build` / `swift test` at the top level never build the harness.
// Run from this directory: swift package --disable-sandbox benchmark
let package = Package(
  name: "swift-text-engine-benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: ".."),
    .package(
      url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1",
      traits: ["MallocInterposer"]),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
  ],
  targets: [
    .executableTarget(
      name: "RopeBenchmarks",
      dependencies: [
        .product(name: "TextRope", package: "main"),
        .product(name: "EditingTraces", package: "main"),
        .product(name: "Benchmark", package: "package-benchmark"),
        .product(name: "_RopeModule", package: "swift-collections"),
      ],
      path: "Benchmarks/RopeBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    )
  ]
)
