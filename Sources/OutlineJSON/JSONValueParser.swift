import OutlineCore

extension JSONValue {
  /// Parses a JSON text into a value, without recursion; nesting deeper than
  /// `maximumDepth` is refused (values are built for messages, not documents).
  public static func parse(_ bytes: [UInt8], maximumDepth: Int = 256) throws(JSONSyntaxError) -> JSONValue {
    // Read where the bytes are (a message of a hundred megabytes is not copied first).
    try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
      try parse(JSONReader(ByteBuffer(buffer: buffer, release: {}, discard: nil)), maximumDepth: maximumDepth)
    }
  }

  private static func parse(_ reader: JSONReader, maximumDepth: Int) throws(JSONSyntaxError) -> JSONValue {
    var reader = reader
    enum Open {
      case array([JSONValue])
      case object([(String, JSONValue)], key: String?)

      /// Appends `value` in place: the container is taken out of `self` first, so its
      /// storage is not shared and the append copies nothing (a copy per element made the
      /// parse of a long array quadratic).
      mutating func append(_ value: JSONValue) {
        switch self {
        case .array(var items):
          self = .array([])
          items.append(value)
          self = .array(items)
        case .object(var members, let key):
          self = .array([])
          members.append((key ?? "", value))
          self = .object(members, key: nil)
        }
      }
    }
    var stack: [Open] = []
    var result: JSONValue?
    func add(_ value: JSONValue, to stack: inout [Open], result: inout JSONValue?) {
      guard !stack.isEmpty else {
        result = value
        return
      }
      stack[stack.count - 1].append(value)
    }
    while let (token, decoded) = try reader.nextToken(decodingLongerThan: Self.longString) {
      switch token.kind {
      case .objectStart, .arrayStart:
        if stack.count >= maximumDepth {
          throw JSONSyntaxError(
            message: "JSON nested deeper than \(maximumDepth) levels", offset: reader.range.start)
        }
        stack.append(token.kind == .objectStart ? .object([], key: nil) : .array([]))
      case .objectEnd:
        guard case .object(let members, _) = stack.popLast() else { continue }
        add(.object(members), to: &stack, result: &result)
      case .arrayEnd:
        guard case .array(let items) = stack.popLast() else { continue }
        add(.array(items), to: &stack, result: &result)
      case .key:
        if case .object(let members, _) = stack.popLast() {
          stack.append(.object(members, key: reader.string(token)))
        }
      case .string:
        // Long strings stay bytes (see ``JSONValue/utf8(_:)``), checked and decoded in one pass.
        let value: JSONValue =
          if let decoded { .utf8(decoded) } else if token.range.length > Self.longString {
            .utf8(reader.utf8(token))
          } else { .string(reader.string(token)) }
        add(value, to: &stack, result: &result)
      case .number:
        add(.number(String(decoding: reader.contents(of: token), as: UTF8.self)), to: &stack, result: &result)
      case .true: add(.bool(true), to: &stack, result: &result)
      case .false: add(.bool(false), to: &stack, result: &result)
      case .null: add(.null, to: &stack, result: &result)
      }
    }
    return result ?? .null
  }

  /// Strings longer than this many bytes are parsed into ``utf8(_:)`` values.
  static let longString = 1 << 12

  /// The string, when this is one.
  public var stringValue: String? {
    switch self {
    case .string(let value): value
    case .utf8(let bytes): String(decoding: bytes, as: UTF8.self)
    default: nil
    }
  }

  /// The string's UTF-8, when this is one.
  public var utf8Value: [UInt8]? {
    switch self {
    case .string(let value): Array(value.utf8)
    case .utf8(let bytes): bytes
    default: nil
    }
  }

  /// The integer, when this is a number without fraction that fits.
  public var intValue: Int? {
    if case .number(let digits) = self { return Int(digits) }
    return nil
  }

  /// The Boolean, when this is one.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, when this is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let items) = self { return items }
    return nil
  }

  /// Whether this is an object.
  public var isObject: Bool {
    if case .object = self { return true }
    return false
  }
}
