// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "swift-text-engine",
  products: [
    .executable(name: "scope-repl", targets: ["scope-repl"]),
    .executable(name: "editor", targets: ["editor"]),
    // The REPL's engine, JSON and line reading, for the fuzzers in Fuzz/:
    // not public API (hence the underscore).
    .library(name: "_ScopeREPLCore", targets: ["ScopeREPLCore"]),
    // The example editor's model, terminal and spell checker, for its
    // benchmarks in Benchmarks/: not public API.
    .library(name: "_EditorCore", targets: ["EditorCore", "EditorTerminal", "EditorSpelling"]),
    .library(name: "SummaryTrees", targets: ["SummaryTrees"]),
    .library(name: "TextRope", targets: ["TextRope"]),
    .library(name: "TextBoundaries", targets: ["TextBoundaries"]),
    .library(name: "DocumentEngine", targets: ["DocumentEngine"]),
    .library(name: "DocumentMarkdown", targets: ["DocumentMarkdown"]),
    .library(name: "EditingTraces", targets: ["EditingTraces"]),
    // The REPL's commands served to agents over the Model Context Protocol
    // (the MCP server itself only with the trait MCP).
    .library(name: "DocumentMCP", targets: ["DocumentMCP"]),
  ],
  // MCP: the Model Context Protocol server (`scope-repl --mcp`, `editor
  // --mcp PORT`) on modelcontextprotocol/swift-sdk. Off by default: without
  // it, SwiftPM neither fetches nor builds the SDK.
  traits: [
    .trait(
      name: "MCP",
      description: "The MCP server for agents: scope-repl --mcp and editor --mcp PORT.")
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // Only for `swift package generate-documentation` (see `.ci/run`); it
    // adds a command plugin, nothing that any target links.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // Only with the trait MCP (the SDK, and its logger's package).
    .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // Only with the trait MCP: the editor's Streamable HTTP endpoint, and
    // the file descriptors of the stdio transport's tests.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
  ],
  targets: [
    .target(name: "SummaryTrees"),
    .target(name: "TextRope", dependencies: ["SummaryTrees"]),
    // The system ICU's headers come from libicu-dev (`.ci/setup` installs
    // it). There is deliberately no systemLibrary target for it: SwiftPM
    // would link libicuuc into every program, and Foundation's bundled ICU
    // would then bind to it. CEngineICU loads it with dlopen(RTLD_LOCAL).
    .target(name: "CEngineICU"),
    .target(name: "TextBoundaries", dependencies: ["TextRope", "CEngineICU"]),
    .target(name: "DocumentEngine", dependencies: ["SummaryTrees", "TextRope", "TextBoundaries"]),
    // GitHub's cmark-gfm and its extensions, the system's (libcmark-gfm-dev,
    // libcmark-gfm-extensions-dev; `.ci/setup` installs them).
    .systemLibrary(
      name: "CCMarkGFM",
      path: "Sources/CCMarkGFM",
      pkgConfig: "libcmark-gfm",
      providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
    ),
    .target(name: "DocumentMarkdown", dependencies: ["DocumentEngine", "TextRope", "CCMarkGFM"]),
    .systemLibrary(
      name: "CZlib",
      path: "Sources/CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    .target(name: "EditingTraces", dependencies: ["CZlib"]),
    .executableTarget(
      name: "rope-tour",
      dependencies: ["TextRope", "TextBoundaries", "EditingTraces"],
      path: "Examples/RopeTour",
      exclude: ["README.md"]
    ),
    .target(
      name: "ScopeREPLCore",
      dependencies: [
        "DocumentEngine", "DocumentMarkdown", "SummaryTrees", "TextRope", "TextBoundaries",
        "EditingTraces",
      ],
      path: "Examples/ScopeREPL/Core"
    ),
    .target(
      name: "DocumentMCP",
      dependencies: [
        "ScopeREPLCore", "DocumentEngine",
        .product(name: "MCP", package: "swift-sdk", condition: .when(traits: ["MCP"])),
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["MCP"])),
        .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["MCP"])),
        .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["MCP"])),
        .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["MCP"])),
      ]
    ),
    .executableTarget(
      name: "scope-repl",
      dependencies: [
        "ScopeREPLCore", "DocumentEngine", "TextRope", "DocumentMCP",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/ScopeREPL",
      exclude: ["README.md", "PROTOCOL.md", "Core", "Scripts"]
    ),
    // The example editor (Examples/Editor): the terminal, Enchant's spell
    // checker (loaded with dlopen, as ICU is), the editor's model, and the
    // program.
    .target(name: "EditorTerminal", path: "Examples/Editor/Terminal"),
    .target(name: "EditorSpelling", path: "Examples/Editor/Spelling"),
    .target(
      name: "EditorCore",
      dependencies: [
        "EditorTerminal", "EditorSpelling", "DocumentEngine", "DocumentMarkdown", "TextRope",
        "TextBoundaries",
      ],
      path: "Examples/Editor/Core"
    ),
    .executableTarget(
      name: "editor",
      dependencies: [
        "EditorCore", "EditorTerminal", "EditorSpelling", "DocumentMCP", "ScopeREPLCore",
        "DocumentEngine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/Editor/App"
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
    .executableTarget(
      name: "icu-binding-probe",
      dependencies: ["TextBoundaries", "TextRope"],
      path: "Tests/ICUBindingProbe"
    ),
    .testTarget(
      name: "TextBoundariesTests",
      dependencies: ["TextBoundaries", "TextRope", "_EngineTestSupport", "icu-binding-probe"]
    ),
    .testTarget(
      name: "DocumentEngineTests",
      dependencies: ["DocumentEngine", "SummaryTrees", "EditingTraces", "_EngineTestSupport"]
    ),
    .testTarget(
      name: "DocumentMarkdownTests",
      dependencies: ["DocumentMarkdown", "DocumentEngine", "_EngineTestSupport"],
      // Real Markdown files the tests read from the checkout (with their
      // licences in Corpus/LICENSES.md).
      exclude: ["Corpus"]
    ),
    .testTarget(
      name: "ScopeREPLTests",
      dependencies: ["scope-repl", "ScopeREPLCore", "EditingTraces", "CZlib", "_EngineTestSupport"]
    ),
    .testTarget(
      name: "DocumentMCPTests",
      dependencies: [
        "DocumentMCP", "ScopeREPLCore", "DocumentEngine",
        .product(name: "MCP", package: "swift-sdk", condition: .when(traits: ["MCP"])),
        .product(
          name: "SystemPackage", package: "swift-system", condition: .when(traits: ["MCP"])),
      ]
    ),
    .testTarget(
      name: "EditorTerminalTests", dependencies: ["EditorTerminal", "_EngineTestSupport"]),
    .testTarget(name: "EditorSpellingTests", dependencies: ["EditorSpelling"]),
    // The editor driven through a pseudo-terminal, as a person would.
    .testTarget(name: "EditorEndToEndTests", dependencies: ["editor"]),
    .testTarget(
      name: "EditorCoreTests",
      dependencies: ["EditorCore", "EditorTerminal", "DocumentEngine", "_EngineTestSupport"]
    ),
    .testTarget(
      name: "TextRopeTests",
      dependencies: ["TextRope", "EditingTraces", "_EngineTestSupport"]
    ),
  ]
)
