import Foundation
import OutlineCore
import OutlineModel
import OutlineXML

extension OutlineValidator {
  /// An integer value as written: its bytes, or when it holds a character reference
  /// (`&#48;`) its decoded text, as every value is checked decoded.
  static func integer(_ raw: UnsafeBufferPointer<UInt8>) -> Int64? {
    if let value = ModelValues.integer(raw) { return value }
    guard raw.contains(UInt8(ascii: "&")) else { return nil }
    return ModelValues.integer(XMLEscaping.decodeAttribute(raw))
  }

  /// Checks one attribute value against its type and constraints (OL300-OL302).
  func checkValue(_ raw: UnsafeBufferPointer<UInt8>, range: TextRange, attribute facts: AttributeFacts) {
    let attribute = facts.declaration
    guard let type = attribute.type else { return }
    var label: String { Excerpt.quoted(attribute.name) }
    switch type.valueKind {
    case .integer:
      // Integers are read straight from the bytes: no string for the common case.
      let bounds = ModelValues.integerBounds(type)
      guard let value = Self.integer(raw), value >= bounds.lowerBound, value <= bounds.upperBound
      else {
        let text = XMLEscaping.decodeAttribute(raw)
        let problem = ModelValues.problem(with: text, as: type) ?? "\(Excerpt.quoted(text)) is not an integer"
        report(.valueType, "\(label): \(problem)", at: range)
        return
      }
      checkBounds(Double(value), shown: String(value), attribute: facts, range: range)
    case .string:
      guard
        attribute.minValue != nil || attribute.maxValue != nil
          || attribute.regularExpression != nil
      else { return }
      let text = XMLEscaping.decodeAttribute(raw)
      let length = text.count
      checkBounds(Double(length), shown: "length \(length)", attribute: facts, range: range)
      if let pattern = attribute.regularExpression, let regex = facts.pattern {
        let whole = NSRange(text.startIndex..., in: text)
        if regex.firstMatch(in: text, options: [], range: whole) == nil {
          report(
            .valuePattern,
            "\(label) value \(Excerpt.quoted(text)) does not match the regular expression \(Excerpt.quoted(pattern))",
            at: range)
        }
      }
    case .opaque:
      return
    case .number, .boolean, .text:
      let text = XMLEscaping.decodeAttribute(raw)
      if let problem = ModelValues.problem(with: text, as: type) {
        report(.valueType, "\(label): \(problem)", at: range)
        return
      }
      if type.isNumeric, let value = ModelValues.number(text) {
        checkBounds(value, shown: Excerpt.escaped(text), attribute: facts, range: range)
      }
    }
  }

  private func checkBounds(
    _ measure: Double, shown: String, attribute facts: AttributeFacts, range: TextRange
  ) {
    let attribute = facts.declaration
    if let minimum = facts.minimum, measure < minimum {
      report(
        .valueOutOfBounds,
        "\(Excerpt.quoted(attribute.name)) \(shown) is below the minimum \(Excerpt.escaped(attribute.minValue!))",
        at: range)
    } else if let maximum = facts.maximum, measure > maximum {
      report(
        .valueOutOfBounds,
        "\(Excerpt.quoted(attribute.name)) \(shown) is above the maximum \(Excerpt.escaped(attribute.maxValue!))",
        at: range)
    }
  }
}
