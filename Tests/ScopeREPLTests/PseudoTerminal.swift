import Foundation
import Testing
import _EngineTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal for a program to run on, read and written by the test.
final class PseudoTerminal {
  /// The test's side (the master).
  let testSide: Int32
  /// The program's side (the slave), until ``closeProgramSide()``.
  private(set) var programSide: Int32
  /// What the program wrote, so far.
  private(set) var output: [UInt8] = []

  init() throws {
    (testSide, programSide, _) = try PseudoTerminals.open()
  }

  deinit {
    closeProgramSide()
    close(testSide)
  }

  /// The terminal's settings, as the program left them.
  var settings: termios? {
    var settings = termios()
    return tcgetattr(testSide, &settings) == 0 ? settings : nil
  }

  /// Closes the test's copy of the program's side (once the program has its
  /// own), so that reading ends when the program does.
  func closeProgramSide() {
    if programSide >= 0 { close(programSide) }
    programSide = -1
  }

  /// Types `bytes`.
  func write(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { writeBytes(testSide, $0.baseAddress, $0.count) }
  }

  /// Reads until `marker` has been seen `times` times in all the output, for
  /// at most 20 seconds; returns whether it was.
  func read(untilSeen marker: [UInt8], times: Int) -> Bool {
    let deadline = Date().addingTimeInterval(20)
    while occurrences(of: marker) < times {
      guard Date() < deadline, readOnce(waitingMilliseconds: 100) != nil else { return false }
    }
    return true
  }

  /// Reads until the program closes the terminal, for at most 20 seconds.
  func readToEnd() {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline, readOnce(waitingMilliseconds: 100) != nil {}
  }

  /// Waits for output and reads it; nil at its end.
  private func readOnce(waitingMilliseconds: Int32) -> Int? {
    var request = pollfd(fd: testSide, events: Int16(POLLIN), revents: 0)
    guard poll(&request, 1, waitingMilliseconds) > 0 else { return 0 }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { readBytes(testSide, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }  // EIO once the program's side is closed.
    output += buffer[..<count]
    return count
  }

  private func occurrences(of marker: [UInt8]) -> Int {
    guard !marker.isEmpty, output.count >= marker.count else { return 0 }
    return (0...(output.count - marker.count)).count { start in
      output[start..<(start + marker.count)].elementsEqual(marker)
    }
  }
}

#if canImport(Glibc)
private let readBytes = Glibc.read
private let writeBytes = Glibc.write
#elseif canImport(Darwin)
private let readBytes = Darwin.read
private let writeBytes = Darwin.write
#endif
