// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The engine package is `..`; SwiftPM names a path dependency after its
// directory, so take the name from wherever this checkout lives.
let engine = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Benchmarks for the text engine, kept in their own package so that
// `swift build` / `swift test` at the top level never build the harness.
// Run from this directory: swift package --disable-sandbox benchmark
let package = Package(
  name: "swift-text-engine-benchmarks",
  platforms: [.macOS("26.0")],
  dependencies: [
    // With the trait MCP: the agents' benchmarks use the MCP server.
    .package(path: "..", traits: ["MCP"]),
    .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    .package(
      url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1",
      traits: ["MallocInterposer"]),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
  ],
  targets: [
    .target(name: "CHeapStats"),
    .target(
      name: "BenchmarkSupport",
      dependencies: [
        "CHeapStats",
        .product(name: "TextRope", package: engine),
        .product(name: "DocumentEngine", package: engine),
        .product(name: "EditingTraces", package: engine),
        .product(name: "_RopeModule", package: "swift-collections"),
      ]
    ),
    // What the benchmark targets share (configuration, metrics, helpers).
    .target(
      name: "BenchmarkHarness",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "TextRope", package: engine),
        .product(name: "DocumentEngine", package: engine),
        .product(name: "Benchmark", package: "package-benchmark"),
      ]
    ),
    .executableTarget(
      name: "RopeMemory",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "TextRope", package: engine),
        .product(name: "_RopeModule", package: "swift-collections"),
      ]
    ),
    .executableTarget(
      name: "TraceReplay",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "TextRope", package: engine),
        .product(name: "_RopeModule", package: "swift-collections"),
      ]
    ),
    .executableTarget(
      name: "KeystrokeReplay",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "DocumentEngine", package: engine),
        .product(name: "TextRope", package: engine),
      ]
    ),
    .executableTarget(
      name: "TrackedKeystrokes",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "DocumentEngine", package: engine),
        .product(name: "TextRope", package: engine),
      ]
    ),
    .executableTarget(
      name: "StreamingReplay",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "DocumentEngine", package: engine),
      ]
    ),
    .executableTarget(
      name: "Soak",
      dependencies: [
        .product(name: "DocumentEngine", package: engine),
        .product(name: "TextRope", package: engine),
      ]
    ),
    .executableTarget(
      name: "RopeBenchmarks",
      dependencies: [
        "BenchmarkSupport",
        "BenchmarkHarness",
        .product(name: "TextRope", package: engine),
        .product(name: "TextBoundaries", package: engine),
        .product(name: "DocumentEngine", package: engine),
        .product(name: "DocumentMarkdown", package: engine),
        .product(name: "_EditorCore", package: engine),
        .product(name: "Benchmark", package: "package-benchmark"),
        .product(name: "_RopeModule", package: "swift-collections"),
      ],
      path: "Benchmarks/RopeBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    ),
    // 47. An agent's calls over MCP beside the --json protocol.
    .executableTarget(
      name: "AgentBenchmarks",
      dependencies: [
        "BenchmarkHarness",
        "BenchmarkSupport",
        .product(name: "DocumentEngine", package: engine),
        .product(name: "_EditorCore", package: engine),
        .product(name: "DocumentMCP", package: engine),
        .product(name: "_ScopeREPLCore", package: engine),
        .product(name: "MCP", package: "swift-sdk"),
        .product(name: "SystemPackage", package: "swift-system"),
        .product(name: "Benchmark", package: "package-benchmark"),
      ],
      path: "Benchmarks/AgentBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    ),
    // How cost grows: text size 1 KB…1 GB, storages 1…100,000, unseen edits
    // 1…100,000, each beside its baselines (apart from the suite, so that a
    // run of the suite stays short): swift package benchmark --target ScalingSweeps
    .executableTarget(
      name: "ScalingSweeps",
      dependencies: [
        "BenchmarkSupport",
        "BenchmarkHarness",
        .product(name: "TextRope", package: engine),
        .product(name: "DocumentEngine", package: engine),
        .product(name: "Benchmark", package: "package-benchmark"),
        .product(name: "_RopeModule", package: "swift-collections"),
      ],
      path: "Benchmarks/ScalingSweeps",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    ),
  ]
)
