/// A JSON value as the protocol reads and writes it: an object keeps its
/// keys in order (responses list them in a fixed order), and a number is an
/// exact integer when it is one.
public enum JSON: Equatable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number that is an integer and fits in an `Int`.
  case int(Int)
  /// Any other number (`1.5`, `1e3`, `1e400` as infinity).
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSON])
  /// An object: its keys and values in order.
  case object([(String, JSON)])

  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
    default: false
    }
  }

  /// The value of `key` in an object (the last one, if the key repeats).
  public subscript(key: String) -> JSON? {
    guard case .object(let fields) = self else { return nil }
    return fields.last { $0.0 == key }?.1
  }
}

/// Why a line is not JSON.
public struct JSONSyntaxError: Error, CustomStringConvertible {
  /// The byte where reading stopped.
  public var offset: Int
  /// What was wrong there.
  public var reason: String
  public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A strict JSON reader (RFC 8259) over UTF-8 bytes, with a depth limit.
public struct JSONReader {
  private let bytes: [UInt8]
  private var i = 0
  private var depth = 0

  /// The JSON value that `bytes` (one whole value, spaces around it
  /// allowed) is.
  ///
  /// - Throws: ``JSONSyntaxError`` for anything else, and for arrays and
  ///   objects nested deeper than 64.
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSON {
    var reader = JSONReader(bytes: bytes)
    let value = try reader.value()
    reader.skipSpace()
    guard reader.i == bytes.count else { throw reader.error("text after the value") }
    return value
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private func error(_ reason: String) -> JSONSyntaxError {
    JSONSyntaxError(offset: i, reason: reason)
  }

  private var next: UInt8? { i < bytes.count ? bytes[i] : nil }

  private mutating func skipSpace() {
    while let c = next, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1 }
  }

  /// Skips spaces, then `byte` if it comes next.
  private mutating func take(_ byte: Character) -> Bool {
    skipSpace()
    guard next == byte.asciiValue else { return false }
    i += 1
    return true
  }

  private mutating func value() throws(JSONSyntaxError) -> JSON {
    skipSpace()
    guard let c = next else { throw error("unexpected end") }
    switch Character(Unicode.Scalar(c)) {
    case "{", "[":
      depth += 1
      defer { depth -= 1 }
      guard depth <= 64 else { throw error("nested too deep") }
      i += 1
      return c == UInt8(ascii: "{") ? try object() : try array()
    case "\"": return .string(try string())
    case "t": return try literal("true", .bool(true))
    case "f": return try literal("false", .bool(false))
    case "n": return try literal("null", .null)
    case "-", "0"..."9": return try number()
    default: throw error("unexpected character")
    }
  }

  private mutating func literal(_ word: String, _ value: JSON) throws(JSONSyntaxError) -> JSON {
    guard bytes[i...].starts(with: word.utf8) else { throw error("unexpected character") }
    i += word.utf8.count
    return value
  }

  private mutating func object() throws(JSONSyntaxError) -> JSON {
    var fields: [(String, JSON)] = []
    if take("}") { return .object(fields) }
    repeat {
      skipSpace()
      guard next == UInt8(ascii: "\"") else { throw error("expected a key") }
      let key = try string()
      guard take(":") else { throw error("expected ':'") }
      fields.append((key, try value()))
    } while take(",")
    guard take("}") else { throw error("expected ',' or '}'") }
    return .object(fields)
  }

  private mutating func array() throws(JSONSyntaxError) -> JSON {
    var items: [JSON] = []
    if take("]") { return .array(items) }
    repeat { items.append(try value()) } while take(",")
    guard take("]") else { throw error("expected ',' or ']'") }
    return .array(items)
  }

  /// A string, from its opening quote.
  private mutating func string() throws(JSONSyntaxError) -> String {
    i += 1
    var out: [UInt8] = []
    while true {
      guard let c = next else { throw error("unterminated string") }
      i += 1
      switch c {
      case UInt8(ascii: "\""):
        guard let text = String(validating: out, as: UTF8.self) else {
          throw error("invalid UTF-8 in a string")
        }
        return text
      case ..<0x20: throw error("control character in a string")
      case UInt8(ascii: "\\"): try escape(into: &out)
      default: out.append(c)
      }
    }
  }

  /// The escape after a backslash.
  private mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
    guard let e = next else { throw error("unterminated escape") }
    i += 1
    switch Character(Unicode.Scalar(e)) {
    case "\"", "\\", "/": out.append(e)
    case "b": out.append(0x08)
    case "f": out.append(0x0C)
    case "n": out.append(0x0A)
    case "r": out.append(0x0D)
    case "t": out.append(0x09)
    case "u":
      var code = try hex4()
      if (0xD800..<0xDC00).contains(code) {
        // A high surrogate must be followed by an escaped low one.
        guard bytes[i...].starts(with: "\\u".utf8) else {
          throw error("lone surrogate in a \\u escape")
        }
        i += 2
        let low = try hex4()
        guard (0xDC00..<0xE000).contains(low) else {
          throw error("lone surrogate in a \\u escape")
        }
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
      }
      guard let scalar = Unicode.Scalar(code) else {
        throw error("lone surrogate in a \\u escape")
      }
      out.append(contentsOf: String(scalar).utf8)
    default: throw error("bad escape")
    }
  }

  /// The four hex digits of a `\u` escape.
  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw error("bad \\u escape") }
    var value: UInt32 = 0
    for byte in bytes[i..<(i + 4)] {
      guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
        throw error("bad \\u escape")
      }
      value = value << 4 | UInt32(digit)
    }
    i += 4
    return value
  }

  /// A number: an `int` if it is an integer that fits, else a `double`.
  private mutating func number() throws(JSONSyntaxError) -> JSON {
    let start = i
    while let c = next, "+-.0123456789eE".utf8.contains(c) { i += 1 }
    let part = bytes[start..<i]
    guard let isInteger = Self.numberKind(part) else {
      throw JSONSyntaxError(
        offset: start, reason: "bad number '\(String(decoding: part, as: UTF8.self))'")
    }
    if isInteger, let value = Self.integer(part) { return .int(value) }
    return .double(Double(String(decoding: part, as: UTF8.self)) ?? .infinity)
  }

  /// Whether `part` is a JSON number
  /// (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`): nil if not, true
  /// for an integer (no fraction, no exponent).
  static func numberKind(_ part: ArraySlice<UInt8>) -> Bool? {
    var k = part.startIndex
    let end = part.endIndex
    func digits() -> Int {
      let from = k
      while k < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(part[k]) { k += 1 }
      return k - from
    }
    if k < end, part[k] == UInt8(ascii: "-") { k += 1 }
    guard k < end else { return nil }
    if part[k] == UInt8(ascii: "0") {
      k += 1
    } else if digits() == 0 {
      return nil
    }
    var isInteger = true
    if k < end, part[k] == UInt8(ascii: ".") {
      k += 1
      guard digits() > 0 else { return nil }
      isInteger = false
    }
    if k < end, part[k] == UInt8(ascii: "e") || part[k] == UInt8(ascii: "E") {
      k += 1
      if k < end, part[k] == UInt8(ascii: "+") || part[k] == UInt8(ascii: "-") { k += 1 }
      guard digits() > 0 else { return nil }
      isInteger = false
    }
    return k == end ? isInteger : nil
  }

  /// The value of integer `part` (checked by ``numberKind(_:)``), or nil if
  /// it does not fit in an `Int`.
  static func integer(_ part: ArraySlice<UInt8>) -> Int? {
    var k = part.startIndex
    let negative = part[k] == UInt8(ascii: "-")
    if negative { k += 1 }
    var value = 0
    while k < part.endIndex {
      let digit = Int(part[k] &- UInt8(ascii: "0"))
      let (times, o1) = value.multipliedReportingOverflow(by: 10)
      let (next, o2) =
        negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
      if o1 || o2 { return nil }
      value = next
      k += 1
    }
    return value
  }
}

/// Writes JSON compactly, keys in the order given.
public enum JSONWriter {
  /// `value` as compact JSON text on one line.
  public static func write(_ value: JSON) -> String {
    var out = ""
    write(value, to: &out)
    return out
  }

  private static func write(_ value: JSON, to out: inout String) {
    switch value {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let n): out += String(n)
    case .double(let d): out += d.isFinite ? "\(d)" : "null"
    case .string(let s): quote(s, to: &out)
    case .array(let items):
      out += "["
      for (k, item) in items.enumerated() {
        if k > 0 { out += "," }
        write(item, to: &out)
      }
      out += "]"
    case .object(let fields):
      out += "{"
      for (k, (key, item)) in fields.enumerated() {
        if k > 0 { out += "," }
        quote(key, to: &out)
        out += ":"
        write(item, to: &out)
      }
      out += "}"
    }
  }

  /// A string in quotes; controls, U+2028 and U+2029 escaped (so that the
  /// line is one line for JavaScript readers too).
  private static func quote(_ s: String, to out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{0}"..."\u{1F}", "\u{2028}", "\u{2029}":
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
