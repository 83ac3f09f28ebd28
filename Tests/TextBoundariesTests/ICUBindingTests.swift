import Foundation
import Testing

/// The engine loads the system ICU privately; Foundation keeps its own
/// bundled ICU. Run a program that uses both under `LD_DEBUG=bindings` and
/// read which library each symbol lookup was resolved in.
@Suite struct ICUBindingTests {
  static var probePath: String {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
      .appendingPathComponent("icu-binding-probe").path
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe")))
  func foundationAndTheEngineEachBindToTheirOwnICU() throws {
    let log = FileManager.default.temporaryDirectory
      .appendingPathComponent("icu-bindings-\(UUID().uuidString)").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.probePath)
    var environment = ProcessInfo.processInfo.environment
    environment["LD_DEBUG"] = "bindings"
    environment["LD_DEBUG_OUTPUT"] = log
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(printed.contains("[0, 2, 10, 11, 15]"))
    #expect(printed.contains("İSTANBUL"))

    let logs = try FileManager.default.contentsOfDirectory(
      atPath: FileManager.default.temporaryDirectory.path
    )
    .filter { $0.hasPrefix(URL(fileURLWithPath: log).lastPathComponent) }
    var bindings: [(from: String, to: String, symbol: String)] = []
    for name in logs {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
      let text = try String(contentsOfFile: path, encoding: .utf8)
      try? FileManager.default.removeItem(atPath: path)
      for line in text.split(separator: "\n") {
        // "  123:\tbinding file A [0] to B [0]: normal symbol `name' [VERSION]"
        guard let fileRange = line.range(of: "binding file "),
          let toRange = line.range(of: " to ", range: fileRange.upperBound..<line.endIndex),
          let colon = line.range(of: ": ", range: toRange.upperBound..<line.endIndex)
        else { continue }
        let from = String(line[fileRange.upperBound..<toRange.lowerBound])
        let to = String(line[toRange.upperBound..<colon.lowerBound])
        let symbol =
          line[colon.upperBound...].split(separator: "`").dropFirst().first
          .map { String($0.split(separator: "'").first ?? "") } ?? ""
        bindings.append((from, to, symbol))
      }
    }
    #expect(!bindings.isEmpty, "LD_DEBUG wrote no bindings")
    func isSystemICU(_ path: String) -> Bool {
      path.contains("libicuuc.so") || path.contains("libicudata.so")
        || path.contains("libicui18n.so")
    }
    func isFoundation(_ path: String) -> Bool { path.contains("Foundation") }

    // The engine's lookups land in the system ICU...
    #expect(bindings.contains { $0.symbol.hasPrefix("ubrk_open") && isSystemICU($0.to) })
    // ...and Foundation's in its own bundled ICU.
    #expect(bindings.contains { isFoundation($0.from) && $0.to.contains("_FoundationICU") })
    // Nothing crosses over, either way.
    let crossings = bindings.filter {
      (isFoundation($0.from) && isSystemICU($0.to))
        || (isSystemICU($0.from) && $0.to.contains("_FoundationICU"))
    }
    #expect(crossings.isEmpty, "crossing bindings: \(crossings.prefix(5))")
  }
}
