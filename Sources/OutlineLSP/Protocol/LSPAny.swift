import JSONRPC
import OutlineJSON

extension JSONValueCoding {
  /// `T` read from request params, or an `invalidParams` error saying what is wrong.
  static func params<T: Decodable>(_ type: T.Type, from value: JSONValue, method: String) throws -> T {
    do {
      return try decode(T.self, from: value)
    } catch let error as DecodingError {
      throw ResponseError.invalidParams("\(method): \(describe(error))")
    }
  }
}

/// Any JSON value, carried as it is (`LSPAny`): request ids, data the
/// protocol leaves open, and results a feature writes as JSON text itself
/// (``JSONValue/raw(_:)``) because a million items would not fit the
/// `Codable` path's cost.
struct LSPAny: Codable, Sendable, Equatable {
  var value: JSONValue

  init(_ value: JSONValue) { self.value = value }

  init(from decoder: Decoder) throws {
    guard let decoder = decoder as? ValueDecoder else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "LSPAny is read by JSONValueCoding only"))
    }
    value = decoder.value
  }

  func encode(to encoder: Encoder) throws {
    guard let encoder = encoder as? ValueEncoder else {
      throw EncodingError.invalidValue(
        value,
        .init(codingPath: encoder.codingPath, debugDescription: "LSPAny is written by JSONValueCoding only"))
    }
    encoder.encodeValue(value)
  }
}

/// A document's text as UTF-8 bytes: a `didOpen` of a hundred megabytes
/// is taken from the parsed message as it is, never made a `String`.
struct DocumentText: Codable, Sendable, Equatable {
  var bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }
  init(_ string: String) { self.bytes = Array(string.utf8) }

  init(from decoder: Decoder) throws {
    if let decoder = decoder as? ValueDecoder, let bytes = decoder.value.utf8Value {
      self.bytes = bytes
    } else {
      bytes = Array(try decoder.singleValueContainer().decode(String.self).utf8)
    }
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(String(decoding: bytes, as: UTF8.self))
  }
}
