/// `Codable` to and from ``JSONValue``: plain `Codable` types read and written as the
/// project's own JSON values (no Foundation `JSONEncoder` round trip through `Data`).
/// A `nil` optional is left out of its object, as LSP expects.
public enum JSONValueCoding {
  /// The JSON value of `value`.
  public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
    let node = EncodingNode()
    try node.encode(value, codingPath: [])
    return node.value
  }

  /// `T` read from `value`; a `DecodingError` names the path of what is missing or wrong.
  public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    try ValueDecoder(value: value, codingPath: []).decodeValue(T.self)
  }
  /// One line for a decoding error: the path and what was wrong there.
  public static func describe(_ error: DecodingError) -> String {
    func path(_ codingPath: [CodingKey]) -> String {
      codingPath.isEmpty
        ? "params" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
    case .typeMismatch(_, let context), .dataCorrupted(let context):
      return "\(path(context.codingPath)): \(context.debugDescription)"
    case .valueNotFound(_, let context): return "\(path(context.codingPath)) is null"
    @unknown default: return "\(error)"
    }
  }
}

// MARK: Encoding

/// One value being encoded; containers fill it in place.
final class EncodingNode {
  enum Storage {
    case empty
    case value(JSONValue)
    case object([(String, EncodingNode)])
    case array([EncodingNode])
  }
  var storage: Storage = .empty

  func encode<T: Encodable>(_ value: T, codingPath: [CodingKey]) throws {
    switch value {
    case let string as String: storage = .value(.string(string))
    case let int as Int: storage = .value(.int(int))
    case let bool as Bool: storage = .value(.bool(bool))
    default: try value.encode(to: ValueEncoder(node: self, codingPath: codingPath))
    }
  }

  /// The finished value (an object no container wrote to is `{}`).
  var value: JSONValue {
    switch storage {
    case .empty: .object([])
    case .value(let value): value
    case .object(let members): .object(members.map { ($0.0, $0.1.value) })
    case .array(let items): .array(items.map(\.value))
    }
  }

  func member(_ key: String) -> EncodingNode {
    let child = EncodingNode()
    if case .object(var members) = storage {
      storage = .empty
      if let index = members.firstIndex(where: { $0.0 == key }) {
        members[index].1 = child
      } else {
        members.append((key, child))
      }
      storage = .object(members)
    } else {
      storage = .object([(key, child)])
    }
    return child
  }

  func element() -> EncodingNode {
    let child = EncodingNode()
    if case .array(var items) = storage {
      storage = .empty
      items.append(child)
      storage = .array(items)
    } else {
      storage = .array([child])
    }
    return child
  }

  var count: Int {
    if case .array(let items) = storage { return items.count }
    return 0
  }
}

/// The `Encoder` that ``JSONValueCoding/encode(_:)`` hands to each value.
public final class ValueEncoder: Encoder {
  let node: EncodingNode
  public let codingPath: [CodingKey]
  public var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(node: EncodingNode, codingPath: [CodingKey]) {
    self.node = node
    self.codingPath = codingPath
  }

  public func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = node.storage {} else { node.storage = .object([]) }
    return KeyedEncodingContainer(KeyedEncoder<Key>(node: node, codingPath: codingPath))
  }

  public func unkeyedContainer() -> UnkeyedEncodingContainer {
    if case .array = node.storage {} else { node.storage = .array([]) }
    return UnkeyedEncoder(node: node, codingPath: codingPath)
  }

  public func singleValueContainer() -> SingleValueEncodingContainer {
    SingleEncoder(node: node, codingPath: codingPath)
  }

  /// Writes `value` as it is, as the whole of what this encoder encodes (a value carried as
  /// JSON, such as LSP's `LSPAny`).
  public func encodeValue(_ value: JSONValue) { node.storage = .value(value) }
}

private func number<T: LosslessStringConvertible>(_ value: T) -> JSONValue { .number(String(value)) }

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: EncodingNode
  let codingPath: [CodingKey]

  private func put(_ value: JSONValue, _ key: Key) { node.member(key.stringValue).storage = .value(value) }

  mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { put(number(value), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { put(number(value), key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try node.member(key.stringValue).encode(value, codingPath: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = node.member(key.stringValue)
    child.storage = .object([])
    return KeyedEncodingContainer(KeyedEncoder<NestedKey>(node: child, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
    let child = node.member(key.stringValue)
    child.storage = .array([])
    return UnkeyedEncoder(node: child, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> Encoder {
    ValueEncoder(node: node.member("super"), codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> Encoder {
    ValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
  }
}

private struct IndexKey: CodingKey {
  var stringValue: String { String(intValue!) }
  var intValue: Int?
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedEncoder: UnkeyedEncodingContainer, PrimitivePutting {
  let node: EncodingNode
  let codingPath: [CodingKey]
  var count: Int { node.count }

  fileprivate func put(_ value: JSONValue) { node.element().storage = .value(value) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let path = codingPath + [IndexKey(count)]
    try node.element().encode(value, codingPath: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let path = codingPath + [IndexKey(count)]
    let child = node.element()
    child.storage = .object([])
    return KeyedEncodingContainer(KeyedEncoder<NestedKey>(node: child, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
    let path = codingPath + [IndexKey(count)]
    let child = node.element()
    child.storage = .array([])
    return UnkeyedEncoder(node: child, codingPath: path)
  }

  mutating func superEncoder() -> Encoder {
    let path = codingPath + [IndexKey(count)]
    return ValueEncoder(node: node.element(), codingPath: path)
  }
}

private struct SingleEncoder: SingleValueEncodingContainer, PrimitivePutting {
  let node: EncodingNode
  let codingPath: [CodingKey]

  fileprivate func put(_ value: JSONValue) { node.storage = .value(value) }

  mutating func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: codingPath) }
}

// MARK: Decoding

/// The `Decoder` that ``JSONValueCoding/decode(_:from:)`` hands to each value.
public final class ValueDecoder: Decoder {
  /// The value being read, as it is (a value carried as JSON reads it whole).
  public let value: JSONValue
  public let codingPath: [CodingKey]
  public var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(value: JSONValue, codingPath: [CodingKey]) {
    self.value = value
    self.codingPath = codingPath
  }

  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    if T.self == String.self, let string = value.stringValue { return string as! T }
    if T.self == Int.self, let int = value.intValue { return int as! T }
    if T.self == Bool.self, let bool = value.boolValue { return bool as! T }
    return try T(from: self)
  }

  func mismatch(_ expected: String) -> DecodingError {
    .typeMismatch(
      Any.self,
      .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(kind(of: value))"))
  }

  public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else { throw mismatch("an object") }
    return KeyedDecodingContainer(KeyedDecoder<Key>(members: members, codingPath: codingPath))
  }

  public func unkeyedContainer() throws -> UnkeyedDecodingContainer {
    guard case .array(let items) = value else { throw mismatch("an array") }
    return UnkeyedDecoder(items: items, codingPath: codingPath)
  }

  public func singleValueContainer() throws -> SingleValueDecodingContainer { SingleDecoder(decoder: self) }
}

private func kind(of value: JSONValue) -> String {
  switch value {
  case .null: "null"
  case .bool: "a Boolean"
  case .number: "a number"
  case .string, .utf8: "a string"
  case .array: "an array"
  case .object: "an object"
  case .raw: "JSON text"
  }
}

/// A primitive read from `decoder`'s value.
private func primitive<T: LosslessStringConvertible>(_ decoder: ValueDecoder, _ type: T.Type) throws -> T {
  switch decoder.value {
  case .number(let digits):
    if let value = T(digits) { return value }
    throw DecodingError.dataCorrupted(
      .init(codingPath: decoder.codingPath, debugDescription: "\(digits) does not fit \(T.self)"))
  case .bool(let bool) where T.self == Bool.self: return bool as! T
  case .string(let string) where T.self == String.self: return string as! T
  case .utf8(let bytes) where T.self == String.self: return String(decoding: bytes, as: UTF8.self) as! T
  default:
    if case .null = decoder.value {
      throw DecodingError.valueNotFound(
        T.self, .init(codingPath: decoder.codingPath, debugDescription: "null"))
    }
    throw decoder.mismatch(
      T.self == String.self ? "a string" : T.self == Bool.self ? "a Boolean" : "a number")
  }
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [(String, JSONValue)]
  let codingPath: [CodingKey]

  var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

  func contains(_ key: Key) -> Bool { members.contains { $0.0 == key.stringValue } }

  private func child(_ key: Key) throws -> ValueDecoder {
    guard let member = members.first(where: { $0.0 == key.stringValue }) else {
      throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
    }
    return ValueDecoder(value: member.1, codingPath: codingPath + [key])
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    guard let member = members.first(where: { $0.0 == key.stringValue }) else { return true }
    if case .null = member.1 { return true }
    return false
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(child(key), type) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try primitive(child(key), type) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(child(key), type) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try primitive(child(key), type) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try primitive(child(key), type) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try primitive(child(key), type) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try primitive(child(key), type) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try primitive(child(key), type) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try primitive(child(key), type) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try primitive(child(key), type) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try primitive(child(key), type) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try primitive(child(key), type) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try primitive(child(key), type) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try primitive(child(key), type) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try child(key).decodeValue(T.self)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try child(key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
    try child(key).unkeyedContainer()
  }

  func superDecoder() throws -> Decoder {
    ValueDecoder(value: .object(members), codingPath: codingPath)
  }

  func superDecoder(forKey key: Key) throws -> Decoder { try child(key) }
}

private struct UnkeyedDecoder: UnkeyedDecodingContainer {
  let items: [JSONValue]
  let codingPath: [CodingKey]
  var currentIndex = 0
  var count: Int? { items.count }
  var isAtEnd: Bool { currentIndex >= items.count }

  init(items: [JSONValue], codingPath: [CodingKey]) {
    self.items = items
    self.codingPath = codingPath
  }

  private mutating func next() throws -> ValueDecoder {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any.self, .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
    }
    defer { currentIndex += 1 }
    return ValueDecoder(value: items[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)])
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, case .null = items[currentIndex] else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try primitive(next(), type) }
  mutating func decode(_ type: String.Type) throws -> String { try primitive(next(), type) }
  mutating func decode(_ type: Double.Type) throws -> Double { try primitive(next(), type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try primitive(next(), type) }
  mutating func decode(_ type: Int.Type) throws -> Int { try primitive(next(), type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try primitive(next(), type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try primitive(next(), type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try primitive(next(), type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try primitive(next(), type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try primitive(next(), type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(next(), type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(next(), type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(next(), type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(next(), type) }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try next().container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { try next().unkeyedContainer() }

  mutating func superDecoder() throws -> Decoder { try next() }
}

private struct SingleDecoder: SingleValueDecodingContainer {
  let decoder: ValueDecoder
  var codingPath: [CodingKey] { decoder.codingPath }

  func decodeNil() -> Bool {
    if case .null = decoder.value { return true }
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool { try primitive(decoder, type) }
  func decode(_ type: String.Type) throws -> String { try primitive(decoder, type) }
  func decode(_ type: Double.Type) throws -> Double { try primitive(decoder, type) }
  func decode(_ type: Float.Type) throws -> Float { try primitive(decoder, type) }
  func decode(_ type: Int.Type) throws -> Int { try primitive(decoder, type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try primitive(decoder, type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try primitive(decoder, type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try primitive(decoder, type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try primitive(decoder, type) }
  func decode(_ type: UInt.Type) throws -> UInt { try primitive(decoder, type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(decoder, type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(decoder, type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(decoder, type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(decoder, type) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(T.self) }
}

/// The primitive `encode` methods of the unkeyed and single-value
/// containers, which differ only in where they put the value.
private protocol PrimitivePutting {
  func put(_ value: JSONValue)
}

extension PrimitivePutting {
  mutating func encodeNil() throws { put(.null) }
  mutating func encode(_ value: Bool) throws { put(.bool(value)) }
  mutating func encode(_ value: String) throws { put(.string(value)) }
  mutating func encode(_ value: Double) throws { put(number(value)) }
  mutating func encode(_ value: Float) throws { put(number(value)) }
  mutating func encode(_ value: Int) throws { put(number(value)) }
  mutating func encode(_ value: Int8) throws { put(number(value)) }
  mutating func encode(_ value: Int16) throws { put(number(value)) }
  mutating func encode(_ value: Int32) throws { put(number(value)) }
  mutating func encode(_ value: Int64) throws { put(number(value)) }
  mutating func encode(_ value: UInt) throws { put(number(value)) }
  mutating func encode(_ value: UInt8) throws { put(number(value)) }
  mutating func encode(_ value: UInt16) throws { put(number(value)) }
  mutating func encode(_ value: UInt32) throws { put(number(value)) }
  mutating func encode(_ value: UInt64) throws { put(number(value)) }
}
