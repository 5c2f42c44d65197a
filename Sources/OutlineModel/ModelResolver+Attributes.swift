import Foundation
import OutlineCore

/// The checks of each attribute: its type, bounds, pattern and default value.
extension ModelResolver {
  mutating func checkAttribute(_ attribute: Attribute) {
    let where_ = Excerpt.quoted(attribute.declaringEntity + "." + attribute.name)
    guard let type = attribute.type else {
      report(
        .attributeType,
        "attributeType \(Excerpt.quoted(attribute.typeName)) of \(where_) is not a Core Data type",
        at: attribute.range(of: "attributeType"))
      return
    }
    if type == .undefined && !attribute.isTransient {
      report(
        .attributeType, "\(where_) has no attributeType (Undefined); only transient attributes may",
        at: attribute.range(of: "attributeType"))
      return
    }
    var minimum: Double?
    var maximum: Double?
    for (key, text) in [("minValueString", attribute.minValue), ("maxValueString", attribute.maxValue)] {
      guard let text else { continue }
      let bound: Double?
      switch type {
      case .date:
        bound = ModelValues.number(text)
        if bound == nil && !ModelValues.isISODate(text) {
          report(
            .lenientValue, "\(key) \(Excerpt.quoted(text)) of \(where_) is a date in an old format",
            at: attribute.range(of: key))
        }
      case .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .binary:
        bound = ModelValues.number(text)
        if bound == nil {
          report(
            .badDefault, "\(key) \(Excerpt.quoted(text)) of \(where_) is not a number",
            at: attribute.range(of: key))
        }
      case .boolean, .uuid, .uri, .transformable, .objectID, .composite, .undefined:
        bound = nil
      }
      if key == "minValueString" { minimum = bound } else { maximum = bound }
    }
    if let minimum, let maximum, minimum > maximum {
      report(
        .minAboveMax,
        "minValueString \(Excerpt.escaped(attribute.minValue!)) of \(where_) is greater than maxValueString \(Excerpt.escaped(attribute.maxValue!))",
        at: attribute.range(of: "minValueString"),
        related: [RelatedLocation(range: attribute.range(of: "maxValueString"), message: "the maximum")])
    }
    if let pattern = attribute.regularExpression {
      do {
        _ = try NSRegularExpression(pattern: pattern)
      } catch {
        report(
          .badRegularExpression,
          "regularExpressionString \(Excerpt.quoted(pattern)) of \(where_) does not compile",
          at: attribute.range(of: "regularExpressionString"))
      }
    }
    if let text = attribute.defaultValue {
      checkDefault(text, type: type, attribute: attribute, where_: where_, minimum: minimum, maximum: maximum)
    }
  }

  private mutating func checkDefault(
    _ text: String, type: AttributeType, attribute: Attribute, where_: String, minimum: Double?,
    maximum: Double?
  ) {
    let range = attribute.range(of: "defaultValueString")
    if let problem = ModelValues.problem(with: text, as: type) {
      // Where Xcode is lenient, warn: it compiles these.
      let lenient: Bool
      switch type {
      case .boolean: lenient = ModelValues.number(text) != nil
      case .integer16, .integer32, .integer64:
        lenient =
          ModelValues.boolean(text) != nil || ModelValues.number(text).map { $0 == $0.rounded() } == true
      case .date, .uuid, .uri, .binary: lenient = true
      case .decimal, .double, .float, .string, .transformable, .objectID, .composite, .undefined:
        lenient = false
      }
      report(
        lenient ? .lenientValue : .badDefault,
        "defaultValueString of \(where_): \(problem)", at: range)
      return
    }
    let measure: Double?
    switch type.valueKind {
    case .string: measure = Double(text.count)
    case .integer, .number: measure = ModelValues.number(text)
    case .boolean, .text, .opaque: measure = nil
    }
    guard let measure else { return }
    let noun = type == .string ? "length \(text.count)" : "default \(Excerpt.escaped(text))"
    if let minimum, measure < minimum {
      report(
        .badDefault,
        "The \(noun) of \(where_) is below minValueString \(Excerpt.escaped(attribute.minValue!))", at: range)
    } else if let maximum, measure > maximum {
      report(
        .badDefault,
        "The \(noun) of \(where_) is above maxValueString \(Excerpt.escaped(attribute.maxValue!))", at: range)
    }
  }
}
