import TestSupport

/// What a document says, layout aside: each element in document order with its attributes (by
/// name, decoded, integers of the model's integer attributes in canonical form), and each
/// comment and processing instruction in its place. Two texts with one digest hold the same data.
enum DataDigest {
  static func of(_ text: String, model: GeneratedModel) -> [String] {
    let bytes = Array(text.utf8)
    var lines: [String] = []
    var index = 0
    func skip(past end: String) -> String {
      let terminator = Array(end.utf8)
      let start = index
      while index < bytes.count && !bytes[index...].starts(with: terminator) { index += 1 }
      let content = String(decoding: bytes[start..<min(index, bytes.count)], as: UTF8.self)
      index += terminator.count
      return content.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
        index += 1
        continue
      }
      if bytes[index...].starts(with: Array("<!--".utf8)) {
        index += 4
        lines.append("comment " + skip(past: "-->"))
      } else if bytes[index...].starts(with: Array("<?xml ".utf8)) {
        index += 2
        _ = skip(past: "?>")
      } else if bytes[index + 1] == UInt8(ascii: "?") {
        index += 2
        lines.append("pi " + skip(past: "?>"))
      } else if bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "!") {
        index += 2
      } else {
        index += 1
        let nameStart = index
        while index < bytes.count && !isSpace(bytes[index]) && bytes[index] != UInt8(ascii: "/")
          && bytes[index] != UInt8(ascii: ">")
        {
          index += 1
        }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        let entity = name == "outline" ? model.rootEntity : name
        let types = Dictionary(
          model.entities.contains { $0.name == entity }
            ? model.attributes(of: entity).map { ($0.name, $0.type) } : [],
          uniquingKeysWith: { first, _ in first })
        var attributes: [String] = []
        while index < bytes.count && bytes[index] != UInt8(ascii: ">") {
          while index < bytes.count && (isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/")) {
            index += 1
          }
          if index >= bytes.count || bytes[index] == UInt8(ascii: ">") { break }
          let attributeStart = index
          while index < bytes.count && bytes[index] != UInt8(ascii: "=") && !isSpace(bytes[index]) {
            index += 1
          }
          let attribute = String(decoding: bytes[attributeStart..<index], as: UTF8.self)
          while index < bytes.count && bytes[index] != UInt8(ascii: "\"") && bytes[index] != UInt8(ascii: "'")
          {
            index += 1
          }
          guard index < bytes.count else { break }
          let quote = bytes[index]
          index += 1
          let valueStart = index
          while index < bytes.count && bytes[index] != quote { index += 1 }
          var value = decode(String(decoding: bytes[valueStart..<min(index, bytes.count)], as: UTF8.self))
          index += 1
          if types[attribute]?.hasPrefix("Integer") == true
            || (name != "outline" && attribute == model.orderAttribute),
            let integer = Int64(value)
          {
            value = "\(integer)"
          }
          attributes.append("\(attribute)=\(value)")
        }
        lines.append("<\(name) " + attributes.sorted().joined(separator: " "))
      }
    }
    return lines
  }

  /// An attribute value as XML reads it: references decoded.
  static func decode(_ raw: String) -> String {
    guard raw.contains("&") else { return raw }
    var out = ""
    var rest = Substring(raw)
    while let ampersand = rest.firstIndex(of: "&") {
      out += rest[..<ampersand]
      guard let semicolon = rest[ampersand...].firstIndex(of: ";") else {
        out += rest[ampersand...]
        return out
      }
      let name = rest[rest.index(after: ampersand)..<semicolon]
      switch name {
      case "amp": out += "&"
      case "lt": out += "<"
      case "gt": out += ">"
      case "quot": out += "\""
      case "apos": out += "'"
      default:
        var scalar: UInt32?
        if name.hasPrefix("#x") {
          scalar = UInt32(name.dropFirst(2), radix: 16)
        } else if name.hasPrefix("#") {
          scalar = UInt32(name.dropFirst())
        }
        if let scalar, let character = Unicode.Scalar(scalar) {
          out.unicodeScalars.append(character)
        } else {
          out += "&\(name);"
        }
      }
      rest = rest[rest.index(after: semicolon)...]
    }
    return out + rest
  }
}
