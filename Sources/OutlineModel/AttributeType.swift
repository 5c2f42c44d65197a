// The Core Data attribute types and what each one means for a value. Adding a type is adding a case here: the
// compiler then lists every place that must handle it (each `switch` over `AttributeType` or `ValueKind` is
// exhaustive, with no `default:`), which Documentation/Architecture.md's recipe names.

/// The Core Data attribute types, spelled as Xcode writes them.
public enum AttributeType: String, Sendable, CaseIterable {
  case integer16 = "Integer 16"
  case integer32 = "Integer 32"
  case integer64 = "Integer 64"
  case decimal = "Decimal"
  case double = "Double"
  case float = "Float"
  case string = "String"
  case boolean = "Boolean"
  case date = "Date"
  case binary = "Binary"
  case uuid = "UUID"
  case uri = "URI"
  case transformable = "Transformable"
  case objectID = "ObjectID"
  case composite = "Composite"
  case undefined = "Undefined"

  /// What kind of value the type holds, which decides how a value is checked and written.
  public var valueKind: ValueKind {
    switch self {
    case .integer16, .integer32, .integer64: .integer
    case .decimal, .double, .float: .number
    case .boolean: .boolean
    case .string: .string
    case .date, .binary, .uuid, .uri: .text
    case .transformable, .objectID, .composite, .undefined: .opaque
    }
  }

  /// The values an integer type holds; nil for the other types.
  public var integerBounds: ClosedRange<Int64>? {
    switch self {
    case .integer16: Int64(Int16.min)...Int64(Int16.max)
    case .integer32: Int64(Int32.min)...Int64(Int32.max)
    case .integer64: Int64.min...Int64.max
    case .decimal, .double, .float, .string, .boolean, .date, .binary, .uuid, .uri, .transformable, .objectID,
      .composite, .undefined:
      nil
    }
  }

  /// Whether values are whole numbers.
  public var isInteger: Bool { valueKind == .integer }
  /// Whether values are numbers of any kind.
  public var isNumeric: Bool { valueKind == .integer || valueKind == .number }
}

/// What kind of value an attribute type holds: how the validator checks a
/// value, how the JSON form writes it (`integer` and `number` as JSON
/// numbers, `boolean` as `true`/`false`, the rest as strings) and how
/// uniqueness compares it.
public enum ValueKind: Sendable, Equatable {
  /// A decimal integer within the type's ``AttributeType/integerBounds``.
  case integer
  /// A decimal number (Decimal, Double, Float).
  case number
  /// `YES`/`NO`, `true`/`false`, `1`/`0`.
  case boolean
  /// Any text, bounded in length by the attribute's minimum and maximum.
  case string
  /// Text with a syntax of its type (a date, base64, a UUID, a URI).
  case text
  /// Nothing a document's text can be checked against (Transformable, ObjectID, Composite, Undefined).
  case opaque
}
