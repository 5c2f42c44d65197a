/// A small JSON value for building documents the tools print (reports,
/// SARIF, LSP messages). Only for data of bounded depth built by the
/// toolchain itself; documents read from users go through ``JSONReader``.
public enum JSONValue: Equatable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  case null
  case bool(Bool)
  /// A number as written (integers and decimals keep their digits).
  case number(String)
  case string(String)
  /// A string kept as its UTF-8 bytes: the parser makes long strings (a
  /// document in a `didOpen`) this way, so they are decoded once and never
  /// become a `String` that is then copied back into bytes.
  case utf8([UInt8])
  case array([JSONValue])
  /// Keys keep their order.
  case object([(String, JSONValue)])
  /// JSON text serialized elsewhere, as pieces of UTF-8 written one after
  /// the other as they are (large or deep results).
  case raw([[UInt8]])

  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .number(String(value)) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }

  /// An integer.
  public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.utf8(let a), .utf8(let b)): a == b
    case (.string(let a), .utf8(let b)), (.utf8(let b), .string(let a)): Array(a.utf8) == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  /// The member `key` of an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// Serializes; `indent` > 0 pretty-prints with that many spaces a level.
  public func serialized(indent: Int = 0) -> String {
    String(decoding: serializedBytes(indent: indent), as: UTF8.self)
  }

  /// The serialization as UTF-8; `indent` > 0 pretty-prints with that many spaces a level.
  public func serializedBytes(indent: Int = 0) -> [UInt8] {
    var out: [UInt8] = []
    write(to: &out, indent: indent, level: 0)
    return out
  }

  /// The compact serialization as UTF-8 pieces whose concatenation is the
  /// text; each raw part is a piece of its own, shared, not copied, so a
  /// writer can send a large result without copying it into the message.
  public func serializedPieces() -> [[UInt8]] {
    var pieces: [[UInt8]] = []
    var current: [UInt8] = []
    write(to: &current, pieces: &pieces)
    pieces.append(current)
    return pieces
  }

  private func write(to out: inout [UInt8], pieces: inout [[UInt8]]) {
    switch self {
    case .null: out += [0x6E, 0x75, 0x6C, 0x6C]
    case .bool(let value): out += value ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65]
    case .number(let digits): out += digits.utf8
    case .raw(let parts):
      pieces.append(out)
      pieces += parts
      out = []
    case .string(let value): JSONText.appendQuoted(value, to: &out)
    case .utf8(let bytes): bytes.withUnsafeBufferPointer { JSONText.appendQuoted(bytes: $0, to: &out) }
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        item.write(to: &out, pieces: &pieces)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        JSONText.appendQuoted(key, to: &out)
        out.append(UInt8(ascii: ":"))
        value.write(to: &out, pieces: &pieces)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Writes in bytes, straight into `out`: a report of 50,000 diagnostics
  /// is a million values, and a `String` appended piece by piece costs many times more.
  private func write(to out: inout [UInt8], indent: Int, level: Int) {
    func newline(_ level: Int) {
      guard indent > 0 else { return }
      out.append(0x0A)
      out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }
    switch self {
    case .null: out += "null".utf8
    case .bool(let value): out += (value ? "true" : "false").utf8
    case .number(let digits): out += digits.utf8
    case .raw(let parts): for part in parts { out += part }
    case .string(let value): JSONText.appendQuoted(value, to: &out)
    case .utf8(let bytes):
      JSONText.appendQuoted(String(decoding: bytes, as: UTF8.self), to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]".utf8
        return
      }
      out.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        newline(level + 1)
        item.write(to: &out, indent: indent, level: level + 1)
      }
      newline(level)
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      if members.isEmpty {
        out += "{}".utf8
        return
      }
      out.append(UInt8(ascii: "{"))
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        newline(level + 1)
        JSONText.appendQuoted(key, to: &out)
        out += (indent > 0 ? ": " : ":").utf8
        value.write(to: &out, indent: indent, level: level + 1)
      }
      newline(level)
      out.append(UInt8(ascii: "}"))
    }
  }
}
