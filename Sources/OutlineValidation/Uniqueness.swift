import Foundation
import OutlineCore
import OutlineModel
import OutlineXML

/// The model's uniqueness constraints prepared for the validator: one table
/// per constraint (a sub-entity shares its parent's, since Core Data
/// compares objects across the hierarchy of the entity declaring it).
struct UniquenessPlan {
  /// One constraint as an entity holds it.
  final class Check {
    /// The table its values go into.
    let table: Int
    /// Its members, by index in the holding entity.
    let members: [UniquenessConstraint.Member]
    /// Per member: the attribute's type (nil for a relationship).
    let types: [AttributeType?]
    /// Per member: the attribute's default value, used when the object does not write it.
    let defaults: [[UInt8]?]
    /// The members' names, for messages.
    let names: [String]
    /// The entity that declares it, for messages.
    let declaringEntity: String

    init(table: Int, constraint: UniquenessConstraint, members: [UniquenessConstraint.Member], entity: Entity)
    {
      self.table = table
      self.members = members
      types = members.map {
        if case .attribute(let index) = $0 { entity.attributes[index].type } else { nil }
      }
      defaults = members.map {
        if case .attribute(let index) = $0 {
          entity.attributes[index].defaultValue.map { Array($0.utf8) }
        } else {
          nil
        }
      }
      names = constraint.names
      declaringEntity = constraint.declaringEntity
    }
  }

  /// Per entity: the constraints its objects are checked against.
  let checks: [[Check]]
  /// Per entity: whether it has any.
  let hasChecks: [Bool]
  /// How many tables there are.
  let tableCount: Int

  init(_ model: Model) {
    var tables: [String: Int] = [:]
    checks = model.entities.map { entity in
      var seen: [String: Int] = [:]
      var checks: [Check] = []
      for constraint in entity.uniquenessConstraints {
        let position = seen[constraint.declaringEntity, default: 0]
        seen[constraint.declaringEntity] = position + 1
        guard let members = constraint.members else { continue }
        let key = "\(constraint.declaringEntity)\u{0}\(position)"
        let table = tables[key] ?? tables.count
        tables[key] = table
        checks.append(Check(table: table, constraint: constraint, members: members, entity: entity))
      }
      return checks
    }
    hasChecks = checks.map { !$0.isEmpty }
    tableCount = tables.count
  }
}

/// The values seen per constraint: each object's members, typed and
/// normalized, hashed as one key in a compact table, so a million objects
/// cost one probe each.
struct UniquenessTables {
  private var tables: [IDTable]
  private var key: [UInt8] = []

  init(count: Int) {
    tables = (0..<count).map { _ in IDTable() }
  }

  /// Records `tag`'s values for every constraint of `entity`, reporting a
  /// second object with the same values (OL505). `attributeTag` gives the
  /// tag's attribute index per model attribute (-1 when not written),
  /// `written` the relationships written; `parentID` names the object
  /// nesting sets `implied` to.
  mutating func check(
    _ tag: StartTag, entity: Int, attributeTag: [Int], written: [(relationship: Int, index: Int)],
    implied: Int,
    parentID: () -> String, schema: BoundModel, validator: OutlineValidator
  ) {
    checks: for check in schema.uniqueness.checks[entity] {
      key.removeAll(keepingCapacity: true)
      var firstRange: TextRange?
      for (position, member) in check.members.enumerated() {
        switch member {
        case .attribute(let attribute):
          let index = attributeTag[attribute]
          if index >= 0 {
            if firstRange == nil { firstRange = tag.valueRange(of: index) }
            Self.appendNormalized(tag.rawValue(of: index), type: check.types[position], to: &key)
          } else if let value = check.defaults[position] {
            value.withUnsafeBufferPointer { Self.appendNormalized($0, type: check.types[position], to: &key) }
          } else {
            continue checks  // no value: like SQL's NULL, never a duplicate
          }
        case .relationship(let relationship):
          var target: String
          if relationship == implied {
            target = parentID()
          } else if let index = written.first(where: { $0.relationship == relationship })?.index {
            if firstRange == nil { firstRange = tag.valueRange(of: index) }
            target = tag.value(of: index).trimmingCharacters(in: .whitespaces)
          } else {
            continue checks
          }
          target.withUTF8 { Self.appendField($0, tag: 0x52, to: &key) }
        }
      }
      let range = firstRange ?? tag.nameRange
      let first = key.withUnsafeBufferPointer {
        tables[check.table].insert($0, entity: entity, range: tag.nameRange)
      }
      guard let first else { continue }
      let declaration = schema.model.entities[entity]
      let members = check.names.map { "'\($0)'" }.joined(separator: ", ")
      let values = check.members.compactMap { member -> String? in
        guard case .attribute(let attribute) = member, attributeTag[attribute] >= 0 else { return nil }
        return "\(declaration.attributes[attribute].name)=\"\(tag.value(of: attributeTag[attribute]))\""
      }
      let shown = values.isEmpty ? "" : " (\(values.joined(separator: " ")))"
      validator.report(
        .uniquenessViolation,
        "This '\(declaration.name)' has the same \(members) as an earlier object\(shown): the uniqueness constraint of '\(check.declaringEntity)' allows one",
        at: range,
        related: [RelatedLocation(range: first.range, message: "the first object with these values")])
    }
  }

  /// Appends one member's value as Core Data compares it: integers,
  /// booleans and numbers by value, UUIDs in either case, dates as instants.
  static func appendNormalized(_ raw: UnsafeBufferPointer<UInt8>, type: AttributeType?, to key: inout [UInt8])
  {
    switch type {
    case .integer16?, .integer32?, .integer64?:
      if let value = ModelValues.integer(raw) {
        withUnsafeBytes(of: value.littleEndian) { appendField($0, tag: 0x49, to: &key) }
        return
      }
    case .boolean?:
      if let value = ModelValues.boolean(XMLEscaping.decodeAttribute(raw)) {
        appendField(EmptyCollection(), tag: value ? 0x54 : 0x46, to: &key)
        return
      }
    case .double?, .float?:
      let text = XMLEscaping.decodeAttribute(raw)
      if ModelValues.isDecimalNumber(text),
        let value = type == .float ? Float(text).map(Double.init) : Double(text)
      {
        let bits = (value == 0 ? 0 : value).bitPattern.littleEndian
        withUnsafeBytes(of: bits) { appendField($0, tag: 0x44, to: &key) }
        return
      }
    case .decimal?:
      let text = XMLEscaping.decodeAttribute(raw)
      if ModelValues.isDecimalNumber(text),
        let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
      {
        var canonical = value.isZero ? "0" : value.description
        canonical.withUTF8 { appendField($0, tag: 0x4E, to: &key) }
        return
      }
    case .uuid?:
      var text = XMLEscaping.decodeAttribute(raw).lowercased()
      text.withUTF8 { appendField($0, tag: 0x55, to: &key) }
      return
    case .date?:
      if let instant = DateInstant.milliseconds(XMLEscaping.decodeAttribute(raw)) {
        withUnsafeBytes(of: instant.littleEndian) { appendField($0, tag: 0x41, to: &key) }
        return
      }
    default:
      break
    }
    // Strings, and values that are not of their type (reported as OL300), as written.
    if XMLEscaping.isPlainAttribute(raw) {
      appendField(raw, tag: 0x53, to: &key)
    } else {
      var text = XMLEscaping.decodeAttribute(raw)
      text.withUTF8 { appendField($0, tag: 0x53, to: &key) }
    }
  }

  /// A field: its kind, its length, its bytes, so no two tuples run together.
  static func appendField<Bytes: Collection<UInt8>>(_ bytes: Bytes, tag: UInt8, to key: inout [UInt8]) {
    key.append(tag)
    withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { key.append(contentsOf: $0) }
    key.append(contentsOf: bytes)
  }
}

/// ISO 8601 dates as instants, so `09:30Z` and `11:30+02:00` are the same date.
enum DateInstant {
  /// Milliseconds since 1970 of `2024-05-01T09:30[:00[.250]](Z|+02:00|+0200|+02)`, or nil.
  static func milliseconds(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    func number(_ start: Int, _ count: Int) -> Int64? {
      guard start + count <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[start..<start + count] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard bytes.count >= 17, let year = number(0, 4), bytes[4] == 0x2D, let month = number(5, 2),
      bytes[7] == 0x2D, let day = number(8, 2), bytes[10] == 0x54, let hour = number(11, 2),
      bytes[13] == 0x3A, let minute = number(14, 2)
    else { return nil }
    var at = 16
    var millis: Int64 = 0
    if at < bytes.count && bytes[at] == 0x3A {
      guard let second = number(at + 1, 2) else { return nil }
      millis = second * 1000
      at += 3
      if at < bytes.count && bytes[at] == 0x2E {
        at += 1
        var scale: Int64 = 100
        while at < bytes.count, bytes[at] >= 0x30 && bytes[at] <= 0x39 {
          millis += Int64(bytes[at] - 0x30) * scale
          scale /= 10
          at += 1
        }
      }
    }
    guard at < bytes.count else { return nil }
    var offsetMinutes: Int64 = 0
    if bytes[at] == 0x5A {
      guard at + 1 == bytes.count else { return nil }
    } else if bytes[at] == 0x2B || bytes[at] == 0x2D {
      let sign: Int64 = bytes[at] == 0x2D ? -1 : 1
      guard let hours = number(at + 1, 2) else { return nil }
      var minutes: Int64 = 0
      switch bytes.count - (at + 3) {
      case 0: break
      case 2: minutes = number(at + 3, 2) ?? -1
      case 3 where bytes[at + 3] == 0x3A: minutes = number(at + 4, 2) ?? -1
      default: return nil
      }
      guard minutes >= 0 else { return nil }
      offsetMinutes = sign * (hours * 60 + minutes)
    } else {
      return nil
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let minutes = days * 1440 + hour * 60 + minute - offsetMinutes
    return minutes * 60_000 + millis
  }
}
