/// An `.outline` document made up for a ``GeneratedModel``, with what was made: valid (it lints
/// with no errors; warnings and hints may be there) or broken on purpose, and how it is laid out.
public struct GeneratedDocument: Sendable, CustomStringConvertible {
  /// The document's text.
  public var text: String
  /// What was broken on purpose, one line each; empty for a valid document.
  public var problems: [String] = []
  /// The layout's choices (declaration, line ends, indentation, comments...).
  public var layout: [String] = []
  /// Whether comments or processing instructions were written (the JSON form drops them).
  public var hasComments = false
  /// Whether every sibling group stands in the file in the order its order values give.
  public var inOrder = true
  /// Whether every value is written as `fmt` and `convert` write it back (integers, numbers and
  /// Booleans canonical, `version="1"` on the root and no `entity` there that is the default, no
  /// character references but the needed escapes).
  public var canonicalValues = true
  /// Whether the text is well-formed XML (a broken document may be cut short).
  public var parses = true
  /// Whether the layout may hold text inside an object (OL105: `fmt` refuses it).
  public var hasText = false

  /// A valid document: no problem was put in.
  public var isValid: Bool { problems.isEmpty }

  public var description: String {
    (isValid ? "valid" : "broken: " + problems.joined(separator: "; ")) + "\nlayout: "
      + layout.joined(separator: ", ") + "\n" + text
  }
}

/// Makes ``GeneratedDocument``s for a ``GeneratedModel`` from a seed.
public struct DocumentGenerator {
  /// What kind of documents to make.
  public struct Options: Sendable {
    /// How many problems to put in: 0 for a valid document.
    public var problems = 0
    /// Comments and processing instructions between objects.
    public var comments = false
    /// A careless layout: tabs, attributes over lines, `\r\n`, single quotes, a byte order mark...
    public var untidy = false
    /// Sibling groups written in another order than their order values (valid: a hint, OL403).
    public var outOfOrder = false
    /// Values as people write them (`+3`, `007`, `YES`, `.5`, `&#233;`) rather than canonical.
    public var looseValues = false
    /// The root's `model` attribute, when documents name their model.
    public var modelPath: String?
    /// The deepest nesting of items below the root.
    public var maximumDepth = 4
    /// Problems that are only allowed when `true`: a document cut short (not well-formed).
    public var mayBreakSyntax = true

    public init(
      problems: Int = 0, comments: Bool = false, untidy: Bool = false, outOfOrder: Bool = false,
      looseValues: Bool = false, modelPath: String? = nil, maximumDepth: Int = 4, mayBreakSyntax: Bool = true
    ) {
      self.problems = problems
      self.comments = comments
      self.untidy = untidy
      self.outOfOrder = outOfOrder
      self.looseValues = looseValues
      self.modelPath = modelPath
      self.maximumDepth = maximumDepth
      self.mayBreakSyntax = mayBreakSyntax
    }

    /// Options drawn at random: valid about two times in three, each layout choice by chance.
    public static func random(modelPath: String? = nil, using random: inout SeededGenerator) -> Options {
      Options(
        problems: Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 1...3, using: &random) : 0,
        comments: Bool.random(using: &random), untidy: Bool.random(using: &random),
        outOfOrder: Int.random(in: 0..<4, using: &random) == 0, looseValues: Bool.random(using: &random),
        modelPath: modelPath)
    }
  }

  /// One object of the document being made.
  struct Object {
    var entity: String
    var id: String?
    /// Attributes in the order they will be written, values decoded (escaped when written).
    var attributes: [(name: String, value: String)] = []
    /// Containment groups: relationship, children (indices of objects), whether numbered by an order attribute.
    var groups: [(relationship: String, children: [Int], numbered: Bool)] = []
    /// Raw markup written as its first child (a stray element, text).
    var extra: [String] = []
    var parent: Int?

    func value(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
    mutating func set(_ name: String, _ value: String) {
      if let index = attributes.firstIndex(where: { $0.name == name }) {
        attributes[index].value = value
      } else {
        attributes.append((name, value))
      }
    }
    mutating func remove(_ name: String) { attributes.removeAll { $0.name == name } }
  }

  let model: GeneratedModel
  let options: Options
  var objects: [Object] = []
  var document: GeneratedDocument
  var counter = 0

  /// A document for `model` with `options`, from `random`.
  public static func generate(
    for model: GeneratedModel, options: Options, using random: inout SeededGenerator
  ) -> GeneratedDocument {
    var generator = DocumentGenerator(model: model, options: options, document: GeneratedDocument(text: ""))
    generator.document.inOrder = !options.outOfOrder
    generator.document.canonicalValues = !options.looseValues
    generator.build(using: &random)
    for _ in 0..<options.problems { generator.breakSomething(using: &random) }
    generator.render(using: &random)
    if generator.document.problems.isEmpty && options.problems > 0 {
      generator.document.problems.append("nothing could be broken")
    }
    return generator.document
  }

  // MARK: - The objects

  mutating func build(using random: inout SeededGenerator) {
    let root = add(Object(entity: model.rootEntity), using: &random, isRoot: true)
    let itemEntities = model.concrete(model.itemEntity)
    // Items, breadth by breadth, with their notes.
    var pending = [(parent: root, depth: 0)]
    var itemIndices: [Int] = []
    while !pending.isEmpty {
      let (parent, depth) = pending.removeFirst()
      let relationship = parent == root ? model.rootContainment : model.childContainment
      let count =
        depth == 0
        ? Int.random(in: 0...4, using: &random) : Int.random(in: 0...max(0, 4 - depth), using: &random)
      var children: [Int] = []
      for _ in 0..<count where depth < options.maximumDepth {
        var object = Object(entity: itemEntities.randomElement(using: &random)!)
        object.parent = parent
        let index = add(object, using: &random, isRoot: false)
        children.append(index)
        itemIndices.append(index)
        pending.append((index, depth + 1))
      }
      if !children.isEmpty { objects[parent].groups.append((relationship, children, true)) }
      if let notes = model.noteContainment, let noteEntity = model.noteEntity,
        parent != root || !isSeparateRoot
      {
        let count = Int.random(in: 0...2, using: &random)
        var children: [Int] = []
        for _ in 0..<count {
          var object = Object(entity: noteEntity)
          object.parent = parent
          children.append(add(object, using: &random, isRoot: false))
        }
        if !children.isEmpty {
          // Notes before or after the items: both are containment arrays of the parent.
          let group = (notes, children, false)
          if Bool.random(using: &random) {
            objects[parent].groups.append(group)
          } else {
            objects[parent].groups.insert(group, at: 0)
          }
        }
      }
    }
    numberGroups(using: &random)

    // Ids for about half of the items.
    for index in itemIndices where Bool.random(using: &random) { objects[index].id = newID(using: &random) }
    let identified = itemIndices.filter { objects[$0].id != nil }

    // Tags stand free under the root, each with an id; none when they need members and there are no items.
    var tags: [Int] = []
    if !(model.tagsNeedMembers && itemIndices.isEmpty) {
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        var object = Object(entity: model.tagEntity)
        object.id = newID(using: &random)
        object.parent = root
        tags.append(add(object, using: &random, isRoot: false))
      }
    }
    // References: items name tags and other items; tags pin items (each item pinned by one tag at most).
    for index in itemIndices {
      if !tags.isEmpty && Int.random(in: 0..<3, using: &random) == 0 {
        let named = tags.filter { _ in Bool.random(using: &random) }
        if !named.isEmpty {
          objects[index].set(model.itemTags, named.map { objects[$0].id! }.joined(separator: " "))
        }
      }
      let others = identified.filter { $0 != index }
      if !others.isEmpty && Int.random(in: 0..<4, using: &random) == 0 {
        let limit = min(model.relatedMaximum ?? 3, others.count)
        let named = Array(others.shuffled(using: &random).prefix(Int.random(in: 1...limit, using: &random)))
        objects[index].set(model.itemRelated, named.map { objects[$0].id! }.joined(separator: " "))
      }
    }
    var unpinned = identified.shuffled(using: &random)
    for tag in tags where !unpinned.isEmpty && Bool.random(using: &random) {
      objects[tag].set(model.tagPinned, objects[unpinned.removeLast()].id!)
    }
    if model.tagsNeedMembers {
      for tag in tags {
        let id = objects[tag].id!
        let named = itemIndices.contains {
          (objects[$0].value(model.itemTags) ?? "").split(separator: " ").contains { $0 == id }
        }
        if named { continue }
        let item = itemIndices.randomElement(using: &random)!
        let written = objects[item].value(model.itemTags).map { $0 + " " } ?? ""
        objects[item].set(model.itemTags, written + id)
      }
    }
    // Free tags stand before, between or after the root's items.
    if !tags.isEmpty {
      let position = Int.random(in: 0...objects[root].groups.count, using: &random)
      objects[root].groups.insert(("", tags, false), at: position)
    }
    for index in objects.indices { objects[index].attributes.shuffle(using: &random) }
  }

  var isSeparateRoot: Bool {
    model.rootEntity != model.itemEntity && !model.concrete(model.itemEntity).contains(model.rootEntity)
  }

  /// Adds `object` with values for its attributes: every required one, some optional ones.
  mutating func add(_ object: Object, using random: inout SeededGenerator, isRoot: Bool) -> Int {
    var object = object
    for attribute in model.attributes(of: object.entity) {
      if attribute.name == model.orderAttribute
        && model.lineage(object.entity).contains(where: { $0.name == model.itemEntity })
      {
        continue
      }
      let constrained = model.uniqueness(of: object.entity).contains { $0.contains(attribute.name) }
      if attribute.isRequired || (attribute.isStored && Int.random(in: 0..<5, using: &random) < 2)
        || (!attribute.isStored && Int.random(in: 0..<25, using: &random) == 0)
      {
        var value = self.value(for: attribute, using: &random)
        if constrained && attribute.pattern == nil && attribute.minimum == nil && attribute.maximum == nil {
          counter += 1
          value = "u\(counter)"
        }
        object.attributes.append((attribute.name, value))
      }
    }
    objects.append(object)
    return objects.count - 1
  }

  /// Numbers each numbered group 0..n-1, in file order or (out of order) shuffled.
  mutating func numberGroups(using random: inout SeededGenerator) {
    for index in objects.indices {
      for group in objects[index].groups where group.numbered {
        var numbers = Array(0..<group.children.count)
        if options.outOfOrder && numbers.count > 1 {
          numbers.shuffle(using: &random)
          if numbers == Array(0..<group.children.count) { numbers.swapAt(0, 1) }
        }
        for (child, number) in zip(group.children, numbers) {
          objects[child].set(model.orderAttribute, integer(Int64(number), using: &random))
        }
      }
    }
  }

  mutating func newID(using random: inout SeededGenerator) -> String {
    counter += 1
    let stems = ["n", "_x", "a.b-", "é", "ID_", "t"]
    return stems.randomElement(using: &random)! + "\(counter)"
  }

  // MARK: - Values

  func integer(_ value: Int64, using random: inout SeededGenerator) -> String {
    guard options.looseValues else { return "\(value)" }
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return value >= 0 ? "+\(value)" : "\(value)"
    case 1: return value >= 0 ? "00\(value)" : "-0" + "\(value)".dropFirst()
    case 2: return value == 0 ? "-0" : "\(value)"
    default: return "\(value)"
    }
  }

  /// A value `attribute` accepts.
  func value(for attribute: GeneratedModel.Attribute, using random: inout SeededGenerator) -> String {
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in "0123456789".randomElement(using: &random)! })
    }
    switch attribute.type {
    case "Integer 16", "Integer 32", "Integer 64":
      let range = ModelGenerator.integerRange(attribute.type)
      let low = attribute.minimum.flatMap { Int64($0) } ?? range.lowerBound
      let high = attribute.maximum.flatMap { Int64($0) } ?? range.upperBound
      let value: Int64
      if chance(10) {
        value = chance(50) ? low : high
      } else {
        let start = max(low, min(high, -100))
        let small = start...min(high, start + 200)
        value = Int64.random(in: small, using: &random)
      }
      return integer(value, using: &random)
    case "Double", "Float", "Decimal":
      if let minimum = attribute.minimum.flatMap({ Int($0) }) {
        let maximum = attribute.maximum.flatMap { Int($0) } ?? (minimum + 100)
        let whole = Int.random(in: minimum...maximum, using: &random)
        if whole < maximum && chance(50) {
          return (whole < 0 && whole + 1 == 0 ? "-0" : "\(whole < 0 ? whole + 1 : whole)") + ".25"
        }
        return "\(whole)"
      }
      let sign = chance(30) ? "-" : ""
      var text = sign + "\(Int.random(in: 0...99_999, using: &random))"
      if chance(50) { text += "." + digits(Int.random(in: 1...5, using: &random)) }
      if chance(20) { text += "e\(Int.random(in: -20...20, using: &random))" }
      if options.looseValues && chance(30) {
        text = ["+1.5", ".5", "5.", "007.25", "1E3", "-0.0"].randomElement(using: &random)!
      }
      return text
    case "Boolean":
      let truth = Bool.random(using: &random)
      if options.looseValues {
        return (truth ? ["YES", "1", "true"] : ["NO", "0", "false"]).randomElement(using: &random)!
      }
      return truth ? "true" : "false"
    case "String":
      if let index = attribute.pattern {
        let pattern = ModelGenerator.patterns[index]
        let length = Int.random(in: pattern.lengths, using: &random)
        return String((0..<length).map { _ in pattern.alphabet.randomElement(using: &random)! })
      }
      let low = attribute.minimum.flatMap { Int($0) } ?? 0
      let high = attribute.maximum.flatMap { Int($0) } ?? (low + 12)
      let characters: [Character] = [
        "a", "b", "Z", " ", "&", "<", ">", "\"", "'", "é", "😀", "中", "\n", "\t", "x", "y", "-", "1",
      ]
      return String(
        (0..<Int.random(in: low...high, using: &random)).map { _ in characters.randomElement(using: &random)!
        })
    case "Date":
      let year = Int.random(in: 1900...2100, using: &random)
      let month = Int.random(in: 1...12, using: &random)
      let day = Int.random(in: 1...28, using: &random)
      func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
      var text =
        "\(year)-\(two(month))-\(two(day))T\(two(Int.random(in: 0...23, using: &random))):\(two(Int.random(in: 0...59, using: &random)))"
      if chance(50) { text += ":\(two(Int.random(in: 0...59, using: &random)))" }
      return text + ["Z", "+02:00", "-0530", "+01"].randomElement(using: &random)!
    case "UUID":
      let hex = Array("0123456789abcdefABCDEF")
      let groups = [8, 4, 4, 4, 12].map { count in
        String((0..<count).map { _ in hex.randomElement(using: &random)! })
      }
      return groups.joined(separator: "-")
    case "URI":
      return ["https://example.com/a?b=1&c=2", "mailto:a@b.c", "urn:x-y:z", "file:///tmp/é"].randomElement(
        using: &random)!
    case "Binary":
      return ["", "AAAA", "aGVsbG8=", "3q2+7w=="].randomElement(using: &random)!
    default:
      return ["anything", "", "<x>&amp;", "42"].randomElement(using: &random)!
    }
  }

  // MARK: - Problems

  /// Breaks the document in one way, saying how in ``GeneratedDocument/problems``.
  mutating func breakSomething(using random: inout SeededGenerator) {
    let items = objects.indices.filter {
      $0 > 0 && objects[$0].entity != model.tagEntity && objects[$0].entity != model.noteEntity
    }
    let tags = objects.indices.filter { objects[$0].entity == model.tagEntity }
    let numbered = objects.indices.flatMap { parent in
      objects[parent].groups.filter(\.numbered).map { (parent, $0.children) }
    }
    func describe(_ index: Int) -> String {
      "\(objects[index].entity)" + (objects[index].id.map { " '\($0)'" } ?? " #\(index)")
    }
    for _ in 0..<20 {
      switch Int.random(in: 0..<15, using: &random) {
      case 0:  // a value of the wrong type
        let typed: [String: String] = [
          "Integer 16": "12a", "Integer 32": "one", "Integer 64": "1.5", "Double": "inf", "Float": "1e39",
          "Decimal": "1e400", "Boolean": "maybe", "Date": "2023-02-29T10:00Z", "UUID": "not-a-uuid",
          "URI": "no scheme", "Binary": "!!!",
        ]
        let index = Int.random(in: 0..<objects.count, using: &random)
        let candidates = model.attributes(of: objects[index].entity).filter {
          typed[$0.type] != nil && $0.name != model.orderAttribute && !$0.isDerived && !$0.isTransient
        }
        guard let attribute = candidates.randomElement(using: &random) else { continue }
        objects[index].set(attribute.name, typed[attribute.type]!)
        document.problems.append(
          "wrong type: \(describe(index)) \(attribute.name)=\"\(typed[attribute.type]!)\"")
      case 1:  // a value out of the model's bounds
        let index = Int.random(in: 0..<objects.count, using: &random)
        let candidates = model.attributes(of: objects[index].entity).filter {
          $0.maximum != nil && $0.isStored && $0.pattern == nil
        }
        guard let attribute = candidates.randomElement(using: &random), let maximum = Int(attribute.maximum!)
        else {
          continue
        }
        let value = attribute.type == "String" ? String(repeating: "w", count: maximum + 1) : "\(maximum + 1)"
        objects[index].set(attribute.name, value)
        document.problems.append("out of range: \(describe(index)) \(attribute.name)=\"\(value)\"")
      case 2:  // a value that does not match the pattern
        let index = Int.random(in: 0..<objects.count, using: &random)
        guard
          let attribute = model.attributes(of: objects[index].entity).filter({
            $0.pattern != nil && $0.isStored
          }).randomElement(using: &random)
        else { continue }
        objects[index].set(attribute.name, "!?")
        document.problems.append("pattern: \(describe(index)) \(attribute.name)=\"!?\"")
      case 3, 4:  // an order error
        guard let (_, children) = numbered.randomElement(using: &random) else { continue }
        let child = children.randomElement(using: &random)!
        let kinds =
          children.count > 1
          ? ["duplicate", "gap", "missing", "not a number", "negative"]
          : ["gap", "missing", "not a number", "negative"]
        let kind = kinds.randomElement(using: &random)!
        switch kind {
        case "duplicate":
          let other = children.filter { $0 != child }.randomElement(using: &random)!
          objects[child].set(model.orderAttribute, objects[other].value(model.orderAttribute) ?? "0")
        case "gap": objects[child].set(model.orderAttribute, "\(children.count + 3)")
        case "missing": objects[child].remove(model.orderAttribute)
        case "not a number": objects[child].set(model.orderAttribute, "first")
        default: objects[child].set(model.orderAttribute, "-1")
        }
        document.problems.append("order \(kind): \(describe(child))")
      case 5:  // a required attribute left out
        let index = Int.random(in: 0..<objects.count, using: &random)
        let required = model.attributes(of: objects[index].entity).filter {
          $0.isRequired && $0.name != model.orderAttribute && objects[index].value($0.name) != nil
        }
        guard let attribute = required.randomElement(using: &random) else { continue }
        objects[index].remove(attribute.name)
        document.problems.append("missing required: \(describe(index)) \(attribute.name)")
      case 6:  // a reference to no object, or to one of the wrong entity
        guard let item = items.randomElement(using: &random) else { continue }
        let wrong = items.first { objects[$0].id != nil }.map { objects[$0].id! }
        let target = wrong != nil && Bool.random(using: &random) ? wrong! : "nosuch\(counter)"
        objects[item].set(model.itemTags, target)
        document.problems.append("bad reference: \(describe(item)) \(model.itemTags)=\"\(target)\"")
      case 7:  // an attribute the entity does not have
        let index = Int.random(in: 0..<objects.count, using: &random)
        objects[index].set("bogus_attr", "1")
        document.problems.append("unknown attribute: \(describe(index)) bogus_attr")
      case 8:  // an element of no entity, or of an abstract one, inside an item
        guard let item = items.randomElement(using: &random) else { continue }
        let abstract = model.entities.first { $0.isAbstract }?.name
        let name = abstract != nil && Bool.random(using: &random) ? abstract! : "NoSuchEntity"
        objects[item].extra.append("<\(name)/>")
        document.problems.append("unknown or abstract element <\(name)/> in \(describe(item))")
      case 9:  // an id used twice, or one that is not an NCName
        let identified = objects.indices.filter { objects[$0].id != nil }
        guard identified.count >= 2 else { continue }
        let two = Array(identified.shuffled(using: &random).prefix(2))
        if Bool.random(using: &random) {
          objects[two[1]].id = objects[two[0]].id
          document.problems.append("duplicate id '\(objects[two[0]].id!)'")
        } else {
          objects[two[0]].id = "1bad\(counter)"
          document.problems.append(
            "id not a name: '\(objects[two[0]].id!)' (references to the old id now dangle)")
        }
      case 10:  // a uniqueness constraint broken
        let constrained = objects.indices.filter { index in
          model.uniqueness(of: objects[index].entity).contains { constraint in
            constraint.allSatisfy { objects[index].value($0) != nil }
          }
        }
        guard constrained.count >= 2 else { continue }
        let first = constrained[0]
        guard
          let other = constrained.dropFirst().first(where: {
            model.lineage(objects[$0].entity).first!.name == model.lineage(objects[first].entity).first!.name
          })
        else { continue }
        for constraint in model.uniqueness(of: objects[first].entity) {
          for member in constraint {
            if let value = objects[first].value(member) { objects[other].set(member, value) }
          }
        }
        document.problems.append("uniqueness: \(describe(other)) repeats \(describe(first))")
      case 11:  // text inside an object
        guard let item = items.randomElement(using: &random) else { continue }
        objects[item].extra.append("stray text")
        document.hasText = true
        document.problems.append("text inside \(describe(item))")
      case 12:  // a to-one relationship holding two ids
        let identified = items.filter { objects[$0].id != nil }
        guard identified.count >= 2, let tag = tags.randomElement(using: &random) else { continue }
        let value = identified.prefix(2).map { objects[$0].id! }.joined(separator: " ")
        objects[tag].set(model.tagPinned, value)
        document.problems.append("to-one with two ids: \(describe(tag)) \(model.tagPinned)=\"\(value)\"")
      case 13:  // a tag nested where it cannot stand
        guard let item = items.randomElement(using: &random) else { continue }
        objects[item].extra.append("<\(model.tagEntity) xml:id=\"misplaced\(counter)\"/>")
        counter += 1
        document.problems.append("\(model.tagEntity) nested in \(describe(item))")
      default:  // cut short
        guard options.mayBreakSyntax else { continue }
        document.parses = false
        document.problems.append("cut short")
      }
      return
    }
  }

  // MARK: - Text

  mutating func render(using random: inout SeededGenerator) {
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    let untidy = options.untidy
    let lineEnd = untidy && chance(30) ? "\r\n" : "\n"
    let indentUnit = untidy ? ["\t", "    ", "", " "].randomElement(using: &random)! : "  "
    let quote: Character = untidy && chance(30) ? "'" : "\""
    var text = ""
    if untidy && chance(15) {
      text += "\u{FEFF}"
      document.layout.append("byte order mark")
    }
    switch Int.random(in: 0..<3, using: &random) {
    case 0: document.layout.append("no declaration")
    case 1: text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + lineEnd
    default: text += "<?xml version='1.0' encoding='utf-8' standalone='yes'?>" + lineEnd
    }
    if lineEnd == "\r\n" { document.layout.append("CRLF") }
    if untidy { document.layout.append("untidy (indent '\(indentUnit)', quote \(quote))") }
    if options.outOfOrder { document.layout.append("siblings out of order") }
    if options.looseValues { document.layout.append("loose values") }

    func escaped(_ value: String) -> String {
      var out = ""
      for character in value {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case "\"": out += quote == "\"" ? "&quot;" : "\""
        case "'": out += quote == "'" ? "&apos;" : (options.looseValues ? "&apos;" : "'")
        case ">": out += options.looseValues ? "&gt;" : ">"
        case "\n": out += "&#10;"
        case "\t": out += "&#9;"
        case "é": out += options.looseValues ? "&#233;" : "é"
        default: out.append(character)
        }
      }
      return out
    }
    func comment() -> String {
      document.hasComments = true
      switch Int.random(in: 0..<5, using: &random) {
      case 0: return "<!-- a note -->"
      case 1: return "<!--" + lineEnd + "  over lines" + lineEnd + "-->"
      case 2: return "<?tool run?>"
      case 3: return "<!-- outline-disable-next OL403 -->"
      default: return "<!---->"
      }
    }
    func gap(_ depth: Int) -> String {
      if !untidy { return lineEnd + String(repeating: indentUnit, count: depth) }
      switch Int.random(in: 0..<5, using: &random) {
      case 0: return ""
      case 1: return " "
      case 2: return lineEnd + lineEnd + String(repeating: indentUnit, count: depth)
      default: return lineEnd + String(repeating: indentUnit, count: depth)
      }
    }

    if options.comments && chance(50) { text += comment() + lineEnd }
    // Each object opened, its children, then closed: a stack of (object, depth, closing).
    var stack: [(index: Int, depth: Int, closing: Bool)] = [(0, 0, false)]
    while let (index, depth, closing) = stack.popLast() {
      let object = objects[index]
      let name = index == 0 ? "outline" : object.entity
      if closing {
        text += gap(depth) + "</\(name)" + (untidy && chance(20) ? " " : "") + ">"
        continue
      }
      if index != 0 {
        text += gap(depth)
        if options.comments && chance(25) { text += comment() + gap(depth) }
      }
      var attributes: [(String, String)] = []
      if index == 0 {
        if !options.looseValues || chance(50) { attributes.append(("version", "1")) }
        if let path = options.modelPath { attributes.append(("model", path)) }
        if model.rootEntity != defaultRoot || (options.looseValues && chance(20)) {
          attributes.append(("entity", model.rootEntity))
        }
      }
      if let id = object.id { attributes.append(("xml:id", id)) }
      attributes += object.attributes.map { ($0.name, $0.value) }
      if untidy { attributes.shuffle(using: &random) }
      text += "<\(name)"
      for (attribute, value) in attributes {
        let separator = untidy && chance(20) ? lineEnd + String(repeating: indentUnit, count: depth + 2) : " "
        text += separator + attribute + "=" + String(quote) + escaped(value) + String(quote)
      }
      let children = object.groups.flatMap(\.children)
      if children.isEmpty && object.extra.isEmpty && index != 0 {
        text += untidy && chance(30) ? "></\(name)>" : (untidy && chance(30) ? " />" : "/>")
        continue
      }
      text += ">"
      for extra in object.extra { text += gap(depth + 1) + extra }
      stack.append((index, depth, true))
      for child in children.reversed() { stack.append((child, depth + 1, false)) }
    }
    if options.comments && chance(50) { text += lineEnd + comment() }
    text += lineEnd
    if !document.parses {
      let cut = text.index(
        text.startIndex, offsetBy: Int.random(in: text.count / 3...(text.count * 2 / 3), using: &random))
      text = String(text[..<cut])
    }
    document.text = text
  }

  /// The entity `<outline>` stands for when it names none.
  var defaultRoot: String {
    model.entities.first { entity in
      !entity.isAbstract && model.relationships(of: entity.name).contains(where: \.isContainment)
    }!.name
  }
}
