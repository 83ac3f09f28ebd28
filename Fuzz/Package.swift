// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The engine package is `..`; SwiftPM names a path dependency after its
// directory, so take the name from wherever this checkout lives.
let engine = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// libFuzzer targets for the text engine, kept in their own package so that
// `swift build` / `swift test` at the top level never build them. Build and
// run them with `Fuzz/run.sh` (see Fuzz/README.md); by hand:
//   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
let package = Package(
  name: "swift-text-engine-fuzz",
  dependencies: [
    .package(path: "..")
  ],
  targets: [
    .target(name: "CFuzzDriver"),
    .target(
      name: "FuzzSupport",
      dependencies: ["CFuzzDriver", .product(name: "TextRope", package: engine)]
    ),
    .target(name: "CReferenceICU"),
    .executableTarget(
      name: "FuzzRope",
      dependencies: [
        "FuzzSupport",
        .product(name: "TextRope", package: engine),
      ]
    ),
    .executableTarget(
      name: "FuzzGraphemes",
      dependencies: [
        "FuzzSupport", "CReferenceICU",
        .product(name: "TextRope", package: engine),
        .product(name: "TextBoundaries", package: engine),
      ]
    ),
    .executableTarget(
      name: "FuzzDocument",
      dependencies: [
        "FuzzSupport",
        .product(name: "SummaryTrees", package: engine),
        .product(name: "TextRope", package: engine),
        .product(name: "DocumentEngine", package: engine),
      ]
    ),
    .executableTarget(
      name: "FuzzREPL",
      dependencies: [
        "FuzzSupport",
        .product(name: "_ScopeREPLCore", package: engine),
        .product(name: "DocumentEngine", package: engine),
        .product(name: "TextRope", package: engine),
      ]
    ),
    .executableTarget(
      name: "FuzzMarkdown",
      dependencies: [
        "FuzzSupport",
        .product(name: "DocumentMarkdown", package: engine),
        .product(name: "DocumentEngine", package: engine),
      ]
    ),
  ]
)
