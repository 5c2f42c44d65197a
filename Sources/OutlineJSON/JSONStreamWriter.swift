/// Writes a JSON document value by value, laid out exactly as ``JSONValue/serialized(indent:)``
/// lays out the same document, without ever holding it as a tree: a report of millions of
/// results is written as it is made. The bytes gather in a buffer handed to `sink` whenever
/// it holds `chunkSize` bytes or more, and at ``finish()``.
///
/// The caller opens and closes containers in order; in an object each value follows its
/// ``key(_:)``. Containers nest to any depth the caller opens (the writer keeps one flag per
/// open container, no recursion).
public struct JSONStreamWriter {
  /// The bytes not yet handed to the sink.
  public private(set) var buffer: [UInt8] = []
  private let indent: Int
  private let chunkSize: Int
  private let sink: ([UInt8]) -> Void
  /// How many containers are open.
  private var depth = 0
  /// Whether the innermost open container has no member yet.
  private var empty = true
  /// The `empty` flags of the containers around the innermost.
  private var outer: [Bool] = []
  /// Whether a key was written whose value has not been.
  private var afterKey = false
  /// For each level so far, a new line and its indentation.
  private var newlines: [[UInt8]] = []

  /// A writer that pretty-prints with `indent` spaces a level (0: compact), handing its bytes to
  /// `sink` in pieces of about `chunkSize` bytes.
  public init(indent: Int = 2, chunkSize: Int = 1 << 16, sink: @escaping ([UInt8]) -> Void) {
    self.indent = indent
    self.chunkSize = chunkSize
    self.sink = sink
    buffer.reserveCapacity(chunkSize + 4096)
  }

  /// Hands what is left to the sink.
  public mutating func finish() {
    if !buffer.isEmpty { flush() }
  }

  /// Opens an object.
  public mutating func beginObject() { open(UInt8(ascii: "{")) }

  /// Closes the innermost object.
  public mutating func endObject() { close(UInt8(ascii: "}")) }

  /// Opens an array.
  public mutating func beginArray() { open(UInt8(ascii: "[")) }

  /// Closes the innermost array.
  public mutating func endArray() { close(UInt8(ascii: "]")) }

  /// Writes the key of the next member of the innermost object.
  public mutating func key(_ name: String) {
    separate()
    JSONText.appendQuoted(name, to: &buffer)
    if indent > 0 {
      buffer.append(UInt8(ascii: ":"))
      buffer.append(UInt8(ascii: " "))
    } else {
      buffer.append(UInt8(ascii: ":"))
    }
    afterKey = true
  }

  /// Writes a string.
  public mutating func string(_ value: String) {
    separate()
    JSONText.appendQuoted(value, to: &buffer)
  }

  /// Writes an integer, as ``JSONValue/int(_:)`` spells it.
  public mutating func int(_ value: Int) {
    separate()
    if value >= 0 && value < 10 { return buffer.append(UInt8(ascii: "0") + UInt8(value)) }
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    // The digits' places first, then each digit from the last.
    var magnitude = value.magnitude
    var count = 1
    while magnitude >= 10 {
      magnitude /= 10
      count += 1
    }
    for _ in 0..<count { buffer.append(UInt8(ascii: "0")) }
    magnitude = value.magnitude
    var index = buffer.count - 1
    repeat {
      buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
      magnitude /= 10
      index -= 1
    } while magnitude > 0
  }

  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) {
    separate()
    buffer.append(contentsOf: value ? "true".utf8 : "false".utf8)
  }

  /// Appends `bytes` as they are (after the document: the new line that ends it).
  public mutating func raw(_ bytes: [UInt8]) {
    buffer.append(contentsOf: bytes)
  }

  /// Writes `key` and then `value` as a string: the commonest member.
  public mutating func member(_ key: String, _ value: String) {
    self.key(key)
    string(value)
  }

  /// Writes `key` and then `value` as an integer.
  public mutating func member(_ key: String, _ value: Int) {
    self.key(key)
    int(value)
  }

  /// Writes a value made beforehand (small and of bounded depth, as ``JSONValue`` is), as
  /// ``JSONValue/serialized(indent:)`` would at this place.
  public mutating func value(_ value: JSONValue) {
    // Each step: a value to write, or the closing of a container (true: an object).
    enum Step {
      case value(JSONValue)
      case member(String, JSONValue)
      case close(Bool)
    }
    var steps: [Step] = [.value(value)]
    while let step = steps.popLast() {
      switch step {
      case .close(let object): object ? endObject() : endArray()
      case .member(let name, let member):
        key(name)
        steps.append(.value(member))
      case .value(let value):
        switch value {
        case .null:
          separate()
          buffer.append(contentsOf: "null".utf8)
        case .bool(let flag): bool(flag)
        case .number(let digits):
          separate()
          buffer.append(contentsOf: digits.utf8)
        case .string(let text): string(text)
        case .utf8(let bytes): string(String(decoding: bytes, as: UTF8.self))
        case .raw(let parts):
          separate()
          for part in parts { buffer.append(contentsOf: part) }
        case .array(let items):
          beginArray()
          steps.append(.close(false))
          steps.append(contentsOf: items.reversed().map { .value($0) })
        case .object(let members):
          beginObject()
          steps.append(.close(true))
          steps.append(contentsOf: members.reversed().map { .member($0.0, $0.1) })
        }
      }
    }
  }

  /// Before a value or a key: the comma and the new line that set it apart from the one
  /// before, unless it is the value of the key just written.
  private mutating func separate() {
    if buffer.count >= chunkSize { flush() }
    if afterKey {
      afterKey = false
      return
    }
    guard depth > 0 else { return }
    if !empty { buffer.append(UInt8(ascii: ",")) }
    empty = false
    newline(depth)
  }

  private mutating func open(_ bracket: UInt8) {
    separate()
    buffer.append(bracket)
    outer.append(empty)
    empty = true
    depth += 1
  }

  private mutating func close(_ bracket: UInt8) {
    depth -= 1
    if !empty { newline(depth) }
    buffer.append(bracket)
    empty = outer.removeLast()
  }

  private mutating func newline(_ level: Int) {
    guard indent > 0 else { return }
    // A new line and the level's spaces, made once for each level and copied whole.
    while newlines.count <= level {
      newlines.append([0x0A] + [UInt8](repeating: UInt8(ascii: " "), count: indent * newlines.count))
    }
    buffer.append(contentsOf: newlines[level])
  }

  private mutating func flush() {
    sink(buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}
