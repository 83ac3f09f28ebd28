// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "swift-text-engine",
  products: [
    .library(name: "SummaryTrees", targets: ["SummaryTrees"]),
    .library(name: "TextRope", targets: ["TextRope"]),
    .library(name: "EditingTraces", targets: ["EditingTraces"]),
  ],
  targets: [
    .target(name: "SummaryTrees"),
    .target(name: "TextRope", dependencies: ["SummaryTrees"]),
    .systemLibrary(
      name: "CZlib",
      path: "Sources/CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    .target(name: "EditingTraces", dependencies: ["CZlib"]),
    .executableTarget(
      name: "rope-tour",
      dependencies: ["TextRope", "EditingTraces"],
      path: "Examples/RopeTour",
      exclude: ["README.md"]
    ),
    .target(
      name: "_EngineTestSupport",
      dependencies: ["TextRope", "EditingTraces"],
      path: "Tests/_EngineTestSupport"
    ),
    .testTarget(
      name: "SummaryTreesTests",
      dependencies: ["SummaryTrees", "_EngineTestSupport"]
    ),
    .testTarget(
      name: "TextRopeTests",
      dependencies: ["TextRope", "EditingTraces", "_EngineTestSupport"]
    ),
  ]
)
