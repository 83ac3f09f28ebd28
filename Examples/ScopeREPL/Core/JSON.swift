/// A JSON value as the protocol reads and writes it: objects keep their
/// keys in order (responses list them in a fixed order), numbers stay exact
/// integers when they are.
public enum JSON: Equatable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSON])
  case object([(String, JSON)])

  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: return false
    }
  }

  /// The value of `key` in an object.
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
  let bytes: [UInt8]
  var i = 0
  var depth = 0
  static let maxDepth = 64

  /// The JSON value that `bytes` (one whole value, spaces around it
  /// allowed) is.
  ///
  /// - Throws: ``JSONSyntaxError`` for anything else, and for arrays and
  ///   objects nested deeper than 64.
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSON {
    var reader = JSONReader(bytes: bytes)
    reader.skipSpace()
    let value = try reader.value()
    reader.skipSpace()
    guard reader.i == bytes.count else { throw reader.error("text after the value") }
    return value
  }

  func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: i, reason: reason) }

  mutating func skipSpace() {
    while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
  }

  mutating func expect(_ literal: String, _ value: JSON) throws(JSONSyntaxError) -> JSON {
    let utf8 = Array(literal.utf8)
    guard i + utf8.count <= bytes.count, Array(bytes[i..<(i + utf8.count)]) == utf8 else {
      throw error("unexpected character")
    }
    i += utf8.count
    return value
  }

  mutating func value() throws(JSONSyntaxError) -> JSON {
    guard i < bytes.count else { throw error("unexpected end") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try expect("true", .bool(true))
    case UInt8(ascii: "f"): return try expect("false", .bool(false))
    case UInt8(ascii: "n"): return try expect("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw error("unexpected character")
    }
  }

  mutating func nested<T>(_ body: (inout JSONReader) throws(JSONSyntaxError) -> T)
    throws(JSONSyntaxError) -> T
  {
    depth += 1
    guard depth <= Self.maxDepth else { throw error("nested too deep") }
    defer { depth -= 1 }
    return try body(&self)
  }

  mutating func object() throws(JSONSyntaxError) -> JSON {
    try nested { (r) throws(JSONSyntaxError) -> JSON in
      r.i += 1
      var fields: [(String, JSON)] = []
      r.skipSpace()
      if r.i < r.bytes.count && r.bytes[r.i] == UInt8(ascii: "}") {
        r.i += 1
        return .object(fields)
      }
      while true {
        r.skipSpace()
        guard r.i < r.bytes.count, r.bytes[r.i] == UInt8(ascii: "\"") else {
          throw r.error("expected a key")
        }
        let key = try r.string()
        r.skipSpace()
        guard r.i < r.bytes.count, r.bytes[r.i] == UInt8(ascii: ":") else {
          throw r.error("expected ':'")
        }
        r.i += 1
        r.skipSpace()
        fields.append((key, try r.value()))
        r.skipSpace()
        guard r.i < r.bytes.count else { throw r.error("unexpected end") }
        if r.bytes[r.i] == UInt8(ascii: ",") {
          r.i += 1
          continue
        }
        guard r.bytes[r.i] == UInt8(ascii: "}") else { throw r.error("expected ',' or '}'") }
        r.i += 1
        return .object(fields)
      }
    }
  }

  mutating func array() throws(JSONSyntaxError) -> JSON {
    try nested { (r) throws(JSONSyntaxError) -> JSON in
      r.i += 1
      var items: [JSON] = []
      r.skipSpace()
      if r.i < r.bytes.count && r.bytes[r.i] == UInt8(ascii: "]") {
        r.i += 1
        return .array(items)
      }
      while true {
        r.skipSpace()
        items.append(try r.value())
        r.skipSpace()
        guard r.i < r.bytes.count else { throw r.error("unexpected end") }
        if r.bytes[r.i] == UInt8(ascii: ",") {
          r.i += 1
          continue
        }
        guard r.bytes[r.i] == UInt8(ascii: "]") else { throw r.error("expected ',' or ']'") }
        r.i += 1
        return .array(items)
      }
    }
  }

  mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw error("short \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let c = bytes[i]
      let digit: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
      default: throw error("bad \\u escape")
      }
      value = value * 16 + digit
      i += 1
    }
    return value
  }

  mutating func string() throws(JSONSyntaxError) -> String {
    i += 1
    var out: [UInt8] = []
    while true {
      guard i < bytes.count else { throw error("unterminated string") }
      let c = bytes[i]
      i += 1
      if c == UInt8(ascii: "\"") { break }
      if c < 0x20 { throw error("control character in a string") }
      if c != UInt8(ascii: "\\") {
        out.append(c)
        continue
      }
      guard i < bytes.count else { throw error("unterminated escape") }
      let e = bytes[i]
      i += 1
      switch e {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
          // A high surrogate must be followed by an escaped low one.
          guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
            bytes[i + 1] == UInt8(ascii: "u")
          else { throw error("lone surrogate in a \\u escape") }
          i += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else {
            throw error("lone surrogate in a \\u escape")
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
          throw error("lone surrogate in a \\u escape")
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("bad \\u escape") }
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
      default: throw error("bad escape")
      }
    }
    guard let text = String(validating: out, as: UTF8.self) else {
      throw error("invalid UTF-8 in a string")
    }
    return text
  }

  mutating func number() throws(JSONSyntaxError) -> JSON {
    let start = i
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    func digits(_ r: inout JSONReader) -> Int {
      let from = r.i
      while r.i < r.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(r.bytes[r.i]) {
        r.i += 1
      }
      return r.i - from
    }
    let intDigits = digits(&self)
    guard intDigits > 0 else { throw error("bad number") }
    if intDigits > 1 && bytes[i - intDigits] == UInt8(ascii: "0") {
      throw error("leading zero")
    }
    var isInteger = true
    if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
      i += 1
      isInteger = false
      guard digits(&self) > 0 else { throw error("bad fraction") }
    }
    if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
      i += 1
      isInteger = false
      if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
        i += 1
      }
      guard digits(&self) > 0 else { throw error("bad exponent") }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    if isInteger, let value = Int(text) { return .int(value) }
    return .double(Double(text) ?? .infinity)
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

  static func write(_ value: JSON, to out: inout String) {
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
      for (k, field) in fields.enumerated() {
        if k > 0 { out += "," }
        quote(field.0, to: &out)
        out += ":"
        write(field.1, to: &out)
      }
      out += "}"
    }
  }

  static func quote(_ s: String, to out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{2028}": out += "\\u2028"
      case "\u{2029}": out += "\\u2029"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
