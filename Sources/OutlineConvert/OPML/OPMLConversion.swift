import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// OPML <-> outline (SPEC §6): head fields on the root object, `<outline>`
/// elements as nested `Outline` objects numbered by `order`, every attribute
/// kept. Attributes the shipped OPML model does not know become optional
/// String attributes of a copy of that model written next to the output.
public enum OPMLConversion {
  /// The head fields the OPML model knows, in model order.
  public static let headFields = [
    "title", "dateCreated", "dateModified", "ownerName", "ownerEmail", "ownerId", "docs",
    "expansionState", "vertScrollState", "windowTop", "windowLeft", "windowBottom", "windowRight",
  ]
  /// The `<outline>` attributes the OPML model knows, in model order.
  public static let outlineAttributes = [
    "text", "type", "isComment", "isBreakpoint", "created", "category", "description", "xmlUrl",
    "htmlUrl", "language", "title", "version", "url",
  ]
  /// Names the outline format or the model itself uses; OPML names that clash get an `opml.` prefix
  /// (head fields `head.`). A head field `<xmlns>` would be a namespace declaration on the root.
  static let reservedRoot: Set<String> = [
    "version", "model", "modelVersion", "entity", "xml:id", "opmlVersion", "outlines", "xmlns",
  ]
  static let reservedOutline: Set<String> = ["order", "children", "parent", "document"]

  /// The result of an import: the `.outline` text and the model it names.
  public struct Imported: Sendable {
    /// The `.outline` document.
    public var outline: [UInt8]
    /// The model `contents` (the OPML model, extended with any unknown attributes).
    public var model: String
    /// Attributes the shipped model did not know, now in the copy.
    public var extraRootAttributes: [String]
    public var extraOutlineAttributes: [String]
  }

  /// Imports `document`; the output's `model` attribute is `modelReference`.
  public static func importOPML(_ document: OPMLDocument, modelReference: String) -> Imported {
    var root: [(String, String)] = []
    for (name, value) in document.opmlAttributes { root.append((opmlAttributeName(name), value)) }
    for (name, value) in document.head where !root.contains(where: { $0.0 == headName(name) }) {
      root.append((headName(name), value))
    }
    for (name, value) in document.bodyAttributes { root.append((bodyAttributeName(name), value)) }
    let knownRoot = Set(["opmlVersion"] + headFields)
    var extraRoot: [String] = []
    for (name, _) in root where !knownRoot.contains(name) && !extraRoot.contains(name) {
      extraRoot.append(name)
    }
    var extraOutline: [String] = []
    let knownOutline = Set(outlineAttributes)
    for outline in document.outlines {
      for attribute in outline.attributes {
        let name = outlineName(attribute.name)
        // An OPML `xml:id` is the object's own id, no attribute of the model.
        if name != "xml:id" && !knownOutline.contains(name) && !extraOutline.contains(name) {
          extraOutline.append(name)
        }
      }
    }
    let rootOrder = rootAttributeOrder(head: document.head.map { headName($0.name) }, extras: extraRoot)
    let outlineOrder = ["order"] + outlineAttributes + extraOutline

    var out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\"".utf8)
    out += Array(" model=\"\(XMLEscaping.escapeAttribute(modelReference))\"".utf8)
    for (name, value) in document.namespaces {
      out += Array(" \(name)=\"\(XMLEscaping.escapeAttribute(value))\"".utf8)
    }
    writeAttributes(root, order: rootOrder, into: &out)
    if document.outlines.isEmpty {
      out += Array("/>\n".utf8)
    } else {
      out += Array(">\n".utf8)
      var counts = [0]
      for (index, outline) in document.outlines.enumerated() {
        let depth = outline.depth + 1
        while counts.count > depth { counts.removeLast() }
        while counts.count < depth { counts.append(0) }
        let order = counts[depth - 1]
        counts[depth - 1] += 1
        let hasChildren =
          index + 1 < document.outlines.count && document.outlines[index + 1].depth > outline.depth
        indent(depth, &out)
        // The id first, as `fmt` writes it.
        out += Array("<Outline".utf8)
        let attributes = outline.attributes.map { (outlineName($0.name), $0.value) }
        writeAttributes(attributes.filter { $0.0 == "xml:id" }, order: [], into: &out)
        out += Array(" order=\"\(order)\"".utf8)
        writeAttributes(attributes.filter { $0.0 != "xml:id" }, order: outlineOrder, into: &out)
        out += Array((hasChildren ? ">\n" : "/>\n").utf8)
        // Close the elements this outline ends.
        let nextDepth = index + 1 < document.outlines.count ? document.outlines[index + 1].depth : -1
        if !hasChildren {
          var closing = outline.depth - 1
          while closing >= nextDepth && closing >= 0 {
            indent(closing + 1, &out)
            out += Array("</Outline>\n".utf8)
            closing -= 1
          }
        }
      }
      out += Array("</outline>\n".utf8)
    }
    return Imported(
      outline: out, model: modelContents(rootAttributes: rootOrder, outlineExtras: extraOutline),
      extraRootAttributes: extraRoot, extraOutlineAttributes: extraOutline)
  }

  /// The order of the root's attributes, in the outline and in the model copy (whose order `fmt`
  /// keeps), given the root attributes the head's fields become, in the head's order, and the
  /// root attributes the OPML model does not know (`extras`, first seen first). Export writes the
  /// head fields in the root's order, so that order is the head's: the OPML model's (`opmlVersion`,
  /// its head fields, then the others) when the head's fields come in it, else `opmlVersion`, the
  /// head's fields as they come, then the rest in the OPML model's order.
  static func rootAttributeOrder(head: [String], extras: [String]) -> [String] {
    let standard = ["opmlVersion"] + headFields + extras
    let rank = Dictionary(standard.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    let ranks = head.map { rank[$0] ?? Int.max }
    if zip(ranks, ranks.dropFirst()).allSatisfy({ $0 < $1 }) { return standard }
    let first = ["opmlVersion"] + head
    let placed = Set(first)
    return first + standard.filter { !placed.contains($0) }
  }

  /// The root attribute an `<opml>` attribute becomes (`version` is `opmlVersion`).
  static func opmlAttributeName(_ name: String) -> String {
    name == "version" ? "opmlVersion" : "opml.\(name)"
  }

  /// The root attribute a `<body>` attribute becomes.
  static func bodyAttributeName(_ name: String) -> String { "body.\(name)" }

  /// The root attribute a head field becomes.
  static func headName(_ name: String) -> String {
    reservedRoot.contains(name) || name.hasPrefix("opml.") || name.hasPrefix("body.")
      || name.hasPrefix("head.")
      ? "head.\(name)" : name
  }

  static func outlineName(_ name: String) -> String {
    reservedOutline.contains(name) || name.hasPrefix("opml.") ? "opml.\(name)" : name
  }

  private static func indent(_ depth: Int, _ out: inout [UInt8]) {
    out.append(contentsOf: repeatElement(0x20, count: CanonicalLayout.indentWidth(depth: depth)))
  }

  private static func writeAttributes(
    _ attributes: [(String, String)], order: [String], into out: inout [UInt8]
  ) {
    let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    let sorted = attributes.enumerated().sorted {
      (rank[$0.element.0] ?? Int.max, $0.offset) < (rank[$1.element.0] ?? Int.max, $1.offset)
    }
    for (_, (name, value)) in sorted {
      out += Array(" \(name)=\"\(XMLEscaping.escapeAttribute(value))\"".utf8)
    }
  }

  /// The OPML model's `contents`, with optional String attributes added.
  public static func modelContents(rootExtras: [String], outlineExtras: [String]) -> String {
    modelContents(rootAttributes: ["opmlVersion"] + headFields + rootExtras, outlineExtras: outlineExtras)
  }

  /// The OPML model's `contents` with the root attributes `rootAttributes` (the OPML model's
  /// among them), in that order, and optional String attributes added to `Outline`.
  static func modelContents(rootAttributes: [String], outlineExtras: [String]) -> String {
    func attribute(_ name: String) -> String {
      "        <attribute name=\"\(XMLEscaping.escapeAttribute(name))\" optional=\"YES\" attributeType=\"String\"/>"
    }
    var lines = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>",
      "<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\" lastSavedToolsVersion=\"22522\" systemVersion=\"23E224\" minimumToolsVersion=\"Automatic\" sourceLanguage=\"Swift\" userDefinedModelVersionIdentifier=\"\">",
      "    <entity name=\"OPML\" representedClassName=\"OPMLDocument\" syncable=\"YES\">",
    ]
    lines += rootAttributes.map(attribute)
    lines.append(
      "        <relationship name=\"outlines\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\" destinationEntity=\"Outline\" inverseName=\"document\" inverseEntity=\"Outline\"/>"
    )
    lines.append("    </entity>")
    lines.append("    <entity name=\"Outline\" representedClassName=\"OPMLOutline\" syncable=\"YES\">")
    lines.append(
      "        <attribute name=\"order\" attributeType=\"Integer 64\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/>"
    )
    lines += (outlineAttributes + outlineExtras).map(attribute)
    lines += [
      "        <relationship name=\"children\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\" destinationEntity=\"Outline\" inverseName=\"parent\" inverseEntity=\"Outline\"/>",
      "        <relationship name=\"document\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"OPML\" inverseName=\"outlines\" inverseEntity=\"OPML\"/>",
      "        <relationship name=\"parent\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Outline\" inverseName=\"children\" inverseEntity=\"Outline\"/>",
      "    </entity>",
      "</model>",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: Export

  /// The OPML document an outline in the OPML model stands for: the inverse of
  /// ``importOPML(_:modelReference:)``. Refused, with every place that says why, when `outline
  /// import` would not read the OPML back as the same document (``ExportRefusal``): objects of
  /// other entities, relationships given by id, typed attributes, names that come back changed.
  public static func exportOPML(_ source: SourceText, tree: ItemTree, model: Model) throws(ExportRefusal)
    -> OPMLDocument
  {
    let problems = exportProblems(source, tree: tree, model: model)
    if !problems.isEmpty { throw ExportRefusal(problems: problems) }
    return exportOPML(source, tree: tree)
  }

  /// The OPML document of an outline ``exportProblems(_:tree:model:)`` found nothing wrong with.
  static func exportOPML(_ source: SourceText, tree: ItemTree) -> OPMLDocument {
    var document = OPMLDocument()
    guard !tree.items.isEmpty else { return document }
    TagScanner.withStartTag(in: source.bytes, range: tree.items[0].startTag) { tag in
      for index in 0..<tag.attributes.count {
        let value = tag.value(of: index)
        switch rootPlace(of: XMLName.string(tag.name(of: index))) {
        case .format, .id: continue
        case .namespace(let name): document.namespaces.append((name, value))
        case .opmlAttribute("version"): document.opmlAttributes.insert(("version", value), at: 0)
        case .opmlAttribute(let name): document.opmlAttributes.append((name, value))
        case .bodyAttribute(let name): document.bodyAttributes.append((name, value))
        case .headField(let name): document.head.append((name, value))
        }
      }
    }
    if !document.opmlAttributes.contains(where: { $0.name == "version" }) {
      document.opmlAttributes.insert(("version", "2.0"), at: 0)
    }
    // Pre-order walk with each sibling group in order order.
    var stack: [(item: Int, depth: Int)] = tree.orderedChildren(of: 0).reversed().map { ($0, 0) }
    while let (item, depth) = stack.popLast() {
      TagScanner.withStartTag(in: source.bytes, range: tree.items[item].startTag) { tag in
        var attributes: [OPMLOutline.Attribute] = []
        for index in 0..<tag.attributes.count {
          let name = XMLName.string(tag.name(of: index))
          // The order is the element's place; the id goes back as the OPML `xml:id` it came
          // from (imports keep it as the object's id).
          if name == "order" { continue }
          attributes.append(
            OPMLOutline.Attribute(name: exportedOutlineName(name), value: tag.value(of: index)))
        }
        document.outlines.append(OPMLOutline(depth: depth, attributes: attributes))
      }
      stack += tree.orderedChildren(of: item).reversed().map { ($0, depth + 1) }
    }
    return document
  }

  /// OPML text for `document`.
  public static func write(_ document: OPMLDocument) -> [UInt8] {
    var out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml".utf8)
    for (name, value) in document.opmlAttributes + document.namespaces {
      out += Array(" \(name)=\"\(XMLEscaping.escapeAttribute(value))\"".utf8)
    }
    out += Array(">\n  <head>\n".utf8)
    for (name, value) in document.head {
      out += Array("    <\(name)>\(XMLEscaping.escapeText(value))</\(name)>\n".utf8)
    }
    out += Array("  </head>\n  <body".utf8)
    for (name, value) in document.bodyAttributes {
      out += Array(" \(name)=\"\(XMLEscaping.escapeAttribute(value))\"".utf8)
    }
    out += Array(">\n".utf8)
    for (index, outline) in document.outlines.enumerated() {
      let next = index + 1 < document.outlines.count ? document.outlines[index + 1].depth : -1
      indent(outline.depth + 2, &out)
      out += Array("<outline".utf8)
      for attribute in outline.attributes {
        out += Array(" \(attribute.name)=\"\(XMLEscaping.escapeAttribute(attribute.value))\"".utf8)
      }
      if next > outline.depth {
        out += Array(">\n".utf8)
        continue
      }
      out += Array("/>\n".utf8)
      var closing = outline.depth - 1
      while closing >= max(next, 0) {
        indent(closing + 2, &out)
        out += Array("</outline>\n".utf8)
        closing -= 1
      }
    }
    out += Array("  </body>\n</opml>\n".utf8)
    return out
  }
}
