import OutlineModel

/// A model graph as a Mermaid `classDiagram` that GitHub renders as it is:
/// entities as classes with their attributes, `<<abstract>>`, inheritance
/// arrows, and one association per relationship or inverse pair, each end
/// labelled with its relationship's name and multiplicity.
enum MermaidGraph {
  static func render(_ graph: ModelGraph) -> String {
    let ids = identifiers(graph.nodes.map(\.name))
    var lines = ["classDiagram", "  direction LR"]
    for node in graph.nodes {
      let id = ids[node.name]!
      let label = id == node.name ? "" : "[\"\(escapeLabel(node.name))\"]"
      var members = node.isAbstract ? ["<<abstract>>"] : []
      members += node.fields.map { field in
        let type = field.typeName.filter { $0 != " " } + (field.isOptional ? "?" : "")
        return "+" + memberText("\(type) \(field.name)" + (field.isTransient ? " transient" : ""))
      }
      if members.isEmpty {
        lines.append("  class \(id)\(label)")
      } else {
        lines.append("  class \(id)\(label) {")
        lines += members.map { "    " + $0 }
        lines.append("  }")
      }
    }
    for node in graph.nodes {
      if let parent = node.parent, let parentID = ids[parent] {
        lines.append("  \(parentID) <|-- \(ids[node.name]!)")
      }
    }
    for association in graph.associations {
      guard let from = ids[association.source.entity], let to = ids[association.destination] else { continue }
      let head = "\"\(end(association.source))\""
      var rules = [rule(association.source)]
      if let inverse = association.inverse {
        rules.append(rule(inverse))
        let tail = "\"\(end(inverse))\""
        lines.append("  \(from) \(tail) -- \(head) \(to) : \(rules.joined(separator: ", "))")
      } else {
        lines.append("  \(from) --> \(head) \(to) : \(rules.joined(separator: ", "))")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `children 0..*`: what stands at the far end of a relationship.
  private static func end(_ end: ModelGraph.End) -> String {
    memberText(end.name) + " " + end.multiplicity
  }

  /// `children Cascade ordered`.
  private static func rule(_ end: ModelGraph.End) -> String {
    memberText("\(end.name) \(end.deletionRule.rawValue)" + (end.isOrdered ? " ordered" : ""))
  }

  /// Mermaid class names: letters, digits and `_`, never a keyword; unique.
  static func identifiers(_ names: [String]) -> [String: String] {
    let keywords: Set<String> = [
      "class", "classDiagram", "direction", "end", "note", "namespace", "style", "link", "click",
      "callback", "call", "cssClass", "classDef", "href", "graph", "subgraph", "default", "accTitle",
      "accDescr",
    ]
    var result: [String: String] = [:]
    var used = Set<String>()
    for name in names where result[name] == nil {
      var id = String(
        name.unicodeScalars.map { scalar -> Character in
          scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)))
            ? Character(scalar) : "_"
        })
      if id.isEmpty || id.first!.isNumber || keywords.contains(id) { id = "E_" + id }
      var unique = id
      var suffix = 2
      while used.contains(unique) {
        unique = "\(id)_\(suffix)"
        suffix += 1
      }
      used.insert(unique)
      result[name] = unique
    }
    return result
  }

  /// Text inside a class body or a label: only characters Mermaid reads as plain text.
  static func memberText(_ text: String) -> String {
    String(
      text.map { character -> Character in
        character.isASCII && (character.isLetter || character.isNumber || " _.?-".contains(character))
          ? character : "_"
      })
  }

  /// A class label in double quotes (Mermaid's entity codes for what would end it).
  static func escapeLabel(_ text: String) -> String {
    text.replacingOccurrences(of: "\"", with: "#quot;")
  }
}
