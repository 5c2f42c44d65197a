extension JSONValue {
  /// Parses a JSON text into a value, without recursion; nesting deeper than
  /// `maximumDepth` is refused (values are built for messages, not documents).
  public static func parse(_ bytes: [UInt8], maximumDepth: Int = 256) throws(JSONSyntaxError) -> JSONValue {
    var reader = JSONReader(bytes)
    enum Open {
      case array([JSONValue])
      case object([(String, JSONValue)], key: String?)
    }
    var stack: [Open] = []
    var result: JSONValue?
    func add(_ value: JSONValue, to stack: inout [Open], result: inout JSONValue?) {
      guard let top = stack.popLast() else {
        result = value
        return
      }
      switch top {
      case .array(var items):
        items.append(value)
        stack.append(.array(items))
      case .object(var members, let key):
        members.append((key ?? "", value))
        stack.append(.object(members, key: nil))
      }
    }
    while let event = try reader.next() {
      switch event {
      case .objectStart, .arrayStart:
        if stack.count >= maximumDepth {
          throw JSONSyntaxError(
            message: "JSON nested deeper than \(maximumDepth) levels", offset: reader.range.start)
        }
        stack.append(event == .objectStart ? .object([], key: nil) : .array([]))
      case .objectEnd:
        guard case .object(let members, _) = stack.popLast() else { continue }
        add(.object(members), to: &stack, result: &result)
      case .arrayEnd:
        guard case .array(let items) = stack.popLast() else { continue }
        add(.array(items), to: &stack, result: &result)
      case .key(let key):
        if case .object(let members, _) = stack.popLast() { stack.append(.object(members, key: key)) }
      case .string(let text): add(.string(text), to: &stack, result: &result)
      case .number(let digits): add(.number(digits), to: &stack, result: &result)
      case .bool(let value): add(.bool(value), to: &stack, result: &result)
      case .null: add(.null, to: &stack, result: &result)
      }
    }
    return result ?? .null
  }

  /// The string, when this is one.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
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
