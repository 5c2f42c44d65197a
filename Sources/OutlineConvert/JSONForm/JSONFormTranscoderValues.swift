// The values part of the JSON form reader's pass: what each key's value may be (the format's keys, attributes by
// their model type, relationships as arrays of objects or references), a value refused with a stand-in so the
// rest stays checkable, and JSON string text transcoded to XML attribute text, kept for the object's start tag
// or as a late attribute.

import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineXML

extension Transcoder {
  mutating func formatValue(_ key: FormatKey, _ value: JSONToken) throws(Stop) {
    let top = objects.count - 1
    let object = objects[top]
    switch key {
    case .outline:
      if !object.isRoot {
        note(.unknownAttribute, "'@outline' belongs to the root object only")
      } else if value.kind != .number || !XMLName.equals(reader.contents(of: value), "1") {
        note(.badRootOrVersion, "'@outline' must be 1, the format version")
      }
      try skip(value)
    case .model:
      if !object.isRoot {
        note(.unknownAttribute, "'@model' belongs to the root object only")
        try skip(value)
      } else if value.kind != .string {
        note(.valueType, "'@model' must be a string (a model path)")
        try skip(value)
      } else {
        try addText(value, rank: 1)
      }
    case .xmlns:
      try namespacesValue(value, isRoot: object.isRoot)
    case .modelVersion:
      if !object.isRoot {
        note(.unknownAttribute, "'@modelVersion' belongs to the root object only")
        try skip(value)
      } else if value.kind != .string {
        note(.valueType, "'@modelVersion' must be a string (a model version's name)")
        try skip(value)
      } else {
        try addText(value, rank: 2)
      }
    case .entity:
      guard value.kind == .string else {
        note(.valueType, "'@entity' must be a string (an entity name)")
        if object.isRoot { return try skip(value) }
        return try abandon(value: value)
      }
      guard !object.sawData && !object.hasElements else {
        return note(.unknownAttribute, "'@entity' must come before the object's attributes and arrays")
      }
      let found =
        value.hasEscapes
        ? Array(reader.string(value).utf8).withUnsafeBufferPointer {
          tables.entity(named: ByteView($0), hint: &lastEntity)
        }
        : tables.entity(named: ByteView(reader.contents(of: value)), hint: &lastEntity)
      var text: String { reader.string(value) }
      var problem: (DiagnosticCode, String)?
      if let entity = found {
        if !object.isRoot && !tables.entityNameIsXMLName[entity] {
          problem = (.unknownEntity, "\(Excerpt.quoted(text)) cannot be written as an XML element name")
        } else if model.entities[entity].isAbstract {
          problem = (.abstractEntity, "\(Excerpt.quoted(text)) is abstract")
        } else if !object.isRoot, let misfit = placementProblem(of: entity) {
          problem = (.cannotContain, misfit)
        }
      } else {
        problem = (.unknownEntity, "\(Excerpt.quoted(text)) is not an entity of the model")
      }
      if let (code, message) = problem {
        note(code, message)
        // An object without a usable entity has no element: nothing in it can be checked. The
        // root's problem, just noted under its own code, is what stops the pass (said once).
        if object.isRoot { throw .form(problems.removeLast()) }
        return try abandon(value: nil)
      }
      let entity = found!
      if object.isRoot && entity != model.defaultRootEntity { try addText(value, rank: 3) }
      objects[top].entity = entity
      objects[top].sawEntity = true
      reserveSeen(for: entity)
    case .id:
      guard value.kind == .string else {
        note(.valueType, "'@id' must be a string")
        return try skip(value)
      }
      try addText(value, rank: 2 << 32)
    case .objects:
      guard object.isRoot, value.kind == .arrayStart else {
        note(.valueType, "'@objects' is an array of the root's free objects")
        return try skip(value)
      }
      startChildren(.format(.objects))
    }
  }

  mutating func entityValue(_ index: Int, _ value: JSONToken) throws(Stop) {
    let top = objects.count - 1
    let object = objects[top]
    let entity = object.entity
    var name: String { String(decoding: tables.keys[entity][index], as: UTF8.self) }
    let attributeCount = tables.attributeCount[entity]
    if index < attributeCount {
      if object.isRoot && index == tables.orderAttribute[entity] {
        note(
          .unknownAttribute, "The root object has no \(Excerpt.quoted(name)): only its children are numbered")
        return try skip(value)
      }
      let rank = 3 << 32 | index
      switch tables.attributes[entity][index].valueKind {
      case .integer:
        guard value.kind == .number,
          !reader.contents(of: value).contains(where: { $0 == 0x2E || $0 | 0x20 == 0x65 })
        else { return try refuse(value, rank: rank, "\(Excerpt.quoted(name)) must be an integer") }
        // JSON's one non-canonical integer is `-0`: the XML says `0`.
        let digits = reader.contents(of: value)
        let text = XMLName.equals(digits, "-0") ? UnsafeBufferPointer(rebasing: digits[1...]) : digits
        try addAttribute(rank: rank, text: text, offset: value.range.start)
      case .number:
        guard value.kind == .number else {
          return try refuse(value, rank: rank, "\(Excerpt.quoted(name)) must be a number")
        }
        try addAttribute(rank: rank, text: reader.contents(of: value), offset: value.range.start)
      case .boolean:
        guard value.kind == .true || value.kind == .false else {
          return try refuse(value, rank: rank, "\(Excerpt.quoted(name)) must be true or false")
        }
        try addAttribute(rank: rank, text: reader.contents(of: value), offset: value.range.start)
      case .string, .text, .opaque:
        guard value.kind == .string else {
          return try refuse(value, rank: rank, "\(Excerpt.quoted(name)) must be a string")
        }
        try addText(value, rank: rank)
      }
      return
    }
    let relationship = index - attributeCount
    let rank = 4 << 32 | relationship
    switch tables.relationshipKinds[entity][relationship] {
    case .containment:
      guard value.kind == .arrayStart else {
        note(.valueType, "\(Excerpt.quoted(name)) is a containment relationship: an array of objects")
        return try skip(value)
      }
      startChildren(.entity(index))
    case .toMany:
      guard value.kind == .arrayStart else {
        return try refuse(
          value, rank: rank, "\(Excerpt.quoted(name)) is to-many: an array of ids", keepText: false)
      }
      let textStart = scratch.count
      var count = 0
      while true {
        let id = try token()
        if id.kind == .arrayEnd { break }
        defer { count += 1 }
        guard id.kind == .string else {
          note(.valueType, "\(Excerpt.quoted(name)) holds ids (strings) only", path: path() + "[\(count)]")
          try skip(id)
          continue
        }
        let before = scratch.count
        if before > textStart { scratch.append(0x20) }
        if !transcode(id) { scratch.removeSubrange(before...) }
      }
      try place(
        Attribute(rank: rank, textStart: textStart, textEnd: scratch.count, offset: value.range.start))
    case .toOne:
      guard value.kind == .string else {
        return try refuse(
          value, rank: rank, "\(Excerpt.quoted(name)) is to-one: an id string", keepText: false)
      }
      try addText(value, rank: rank)
    }
  }

  /// Reports a value of the wrong JSON type and writes what stands in for it,
  /// so the rest of the object is still checked as the XML side would: a
  /// scalar's text (with `keepText`), else an empty value. What the
  /// validator says about the stand-in is left out (it has the same path).
  mutating func refuse(
    _ value: JSONToken, rank: Int, _ message: String, keepText: Bool = true
  ) throws(Stop) {
    note(.valueType, message)
    switch value.kind {
    case .string where keepText:
      try addText(value, rank: rank)
    case .number where keepText, .true where keepText, .false where keepText:
      try addAttribute(rank: rank, text: reader.contents(of: value), offset: value.range.start)
    default:
      try skip(value)
      try addAttribute(rank: rank, text: [], offset: value.range.start)
    }
  }

  /// Why a child's entity does not fit the array it stands in, or nil.
  func placementProblem(of entity: Int) -> String? {
    let parent = objects[objects.count - 2]
    guard case .entity(let index) = parent.array else { return nil }  // `@objects` holds anything
    let relationship = index - tables.attributeCount[parent.entity]
    guard let destination = tables.destinations[parent.entity][relationship],
      model.isKind(entity, of: destination)
    else {
      return
        "\(Excerpt.quoted(model.entities[entity].name)) cannot stand in \(Excerpt.quoted(name(of: .entity(index), in: parent)))"
    }
    return nil
  }

  // MARK: Attributes

  /// `@xmlns`: the root's namespace declarations, an object of prefix (an XML name, or `""`
  /// for the default namespace) to namespace name, each written as `xmlns:prefix="name"`.
  mutating func namespacesValue(_ value: JSONToken, isRoot: Bool) throws(Stop) {
    guard isRoot else {
      note(.unknownAttribute, "'@xmlns' belongs to the root object only")
      return try skip(value)
    }
    guard value.kind == .objectStart else {
      note(.valueType, "'@xmlns' must be an object of prefix: namespace name")
      return try skip(value)
    }
    // The root's start tag is written at its first array: declarations after it have no place.
    guard !objects[objects.count - 1].hasElements else {
      note(.unknownAttribute, "'@xmlns' must come before the root's arrays of children")
      return try skip(value)
    }
    while true {
      let key = try token()
      guard key.kind == .key else { break }
      let prefix = reader.string(key)
      // Each declaration's problem is reported at its own member: `$.@xmlns.prefix`.
      let member = path(adding: prefix)
      let name = try token()
      guard name.kind == .string else {
        note(
          .valueType, "'@xmlns' \(Excerpt.quoted(prefix)) must be a string (a namespace name)",
          at: name.range.start, path: member)
        try skip(name)
        continue
      }
      guard prefix.isEmpty || (XMLName.isNCName(prefix) && prefix != "xml" && prefix != "xmlns") else {
        note(
          .unknownAttribute, "\(Excerpt.quoted(prefix)) cannot be a namespace prefix", at: key.range.start,
          path: member)
        continue
      }
      let uri = reader.string(name)
      if let problem = Self.namespaceNameProblem(uri, prefix: prefix) {
        note(.notWellFormed, problem, at: name.range.start, path: member)
        continue
      }
      let prefixBytes = Array(prefix.utf8)
      guard !declaredPrefixes.contains(prefixBytes) else {
        note(
          .unknownAttribute, "The prefix \(Excerpt.quoted(prefix)) is declared twice", at: key.range.start,
          path: member)
        continue
      }
      declaredPrefixes.append(prefixBytes)
      namespaceNames.append(Array((prefix.isEmpty ? "xmlns" : "xmlns:" + prefix).utf8))
      try addText(name, rank: 1 << 32 | (namespaceNames.count - 1), path: member)
    }
  }

  /// Why `uri` cannot be the namespace name of `prefix` (as libxml2 would say of the XML): a
  /// prefix cannot be bound to nothing, the XML and XMLNS namespaces have prefixes of their own,
  /// and a namespace name is a URI (no white space; one libxml2 reads, ``NamespaceName/isURI(_:)``).
  static func namespaceNameProblem(_ uri: String, prefix: String) -> String? {
    if uri.isEmpty && !prefix.isEmpty {
      return "The prefix \(Excerpt.quoted(prefix)) cannot be bound to an empty namespace name"
    }
    if uri == "http://www.w3.org/XML/1998/namespace" || uri == "http://www.w3.org/2000/xmlns/" {
      return "\(Excerpt.quoted(uri)) is reserved for the prefix \(uri.hasSuffix("xmlns/") ? "xmlns" : "xml")"
    }
    if uri.utf8.contains(where: { XMLName.isSpace($0) }) { return "\(Excerpt.quoted(uri)) is not a URI" }
    // A character XML cannot hold is said where it stands, as the value is written.
    if !uri.isEmpty && !uri.utf8.contains(where: { $0 < 0x20 }) && !NamespaceName.isURI(uri) {
      return "\(Excerpt.quoted(uri)) is not a valid URI"
    }
    return nil
  }

  /// Adds the XML text of the string `value` as an attribute of the top object. A string that
  /// cannot be written stands as an empty value (reported, at `path` when given).
  mutating func addText(_ value: JSONToken, rank: Int, path: String? = nil) throws(Stop) {
    let textStart = scratch.count
    if !transcode(value, path: path) { scratch.removeSubrange(textStart...) }
    try place(Attribute(rank: rank, textStart: textStart, textEnd: scratch.count, offset: value.range.start))
  }

  /// Appends the XML text of the string `value`; false (reported at its byte, and at `path`
  /// when given) when it cannot be written.
  mutating func transcode(_ value: JSONToken, path: String? = nil) -> Bool {
    do throws(JSONStringTranscoding.Problem) {
      try JSONStringTranscoding.appendAttributeText(reader.contents(of: value), to: &scratch)
      return true
    } catch {
      note(
        .notWellFormed,
        "\(Excerpt.quoted(objects.last!.pending.map { name(of: $0, in: objects.last!) } ?? "")): \(error.message)",
        at: value.range.start + 1 + error.offset, path: path)
      return false
    }
  }

  mutating func addAttribute(rank: Int, text: some Collection<UInt8>, offset: Int) throws(Stop) {
    let textStart = scratch.count
    scratch.append(contentsOf: text)
    try place(Attribute(rank: rank, textStart: textStart, textEnd: scratch.count, offset: offset))
  }

  /// Keeps an attribute for the top object's start tag, or, when that was
  /// written, as a late attribute (or stops the pass that cannot place one).
  mutating func place(_ attribute: Attribute) throws(Stop) {
    let object = objects[objects.count - 1]
    guard object.headWritten else {
      attributes.append(attribute)
      return
    }
    switch mode {
    case .write(late: nil):
      throw .late
    case .write:
      break  // Written with the start tag already.
    case .collectLate:
      collected[object.number, default: []].append(
        (attribute.rank, Array(scratch[attribute.textStart..<attribute.textEnd]), attribute.offset))
    }
    scratch.removeSubrange(attribute.textStart...)
  }
}
