import OutlineModel

/// A model graph in Graphviz's DOT: each entity a table of its name and
/// attributes (abstract ones in italics), inheritance as hollow arrows, and
/// one edge per relationship or inverse pair with both ends labelled
/// (name, multiplicity, delete rule); to-many ends get Xcode's double arrowhead.
enum DOTGraph {
  static func render(_ graph: ModelGraph) -> String {
    var lines = [
      "digraph model {",
      "  graph [rankdir=LR, fontname=\"Helvetica\"];",
      "  node [shape=plain, fontname=\"Helvetica\", fontsize=11];",
      "  edge [fontname=\"Helvetica\", fontsize=9];",
    ]
    for node in graph.nodes {
      let name = html(node.name)
      var rows = [
        "<tr><td bgcolor=\"#dde4f0\">\(node.isAbstract ? "<i>\(name)</i> (abstract)" : "<b>\(name)</b>")</td></tr>"
      ]
      for field in node.fields {
        let optional = field.isOptional ? "?" : ""
        let transient = field.isTransient ? " (transient)" : ""
        rows.append(
          "<tr><td align=\"left\">\(html(field.name)): \(html(field.typeName))\(optional)\(transient)</td></tr>"
        )
      }
      let table = "<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"4\">"
      lines.append("  \(quoted(node.name)) [label=<\(table)\(rows.joined())</table>>];")
    }
    for node in graph.nodes {
      guard let parent = node.parent, graph.nodes.contains(where: { $0.name == parent }) else { continue }
      lines.append("  \(quoted(node.name)) -> \(quoted(parent)) [arrowhead=empty];")
    }
    for association in graph.associations {
      let source = association.source
      var attributes = [
        "headlabel=\(quoted(label(source)))", "arrowhead=\(source.isToMany ? "normalnormal" : "normal")",
      ]
      if let inverse = association.inverse {
        attributes += [
          "dir=both", "taillabel=\(quoted(label(inverse)))",
          "arrowtail=\(inverse.isToMany ? "normalnormal" : "normal")",
        ]
      }
      lines.append(
        "  \(quoted(source.entity)) -> \(quoted(association.destination)) [\(attributes.joined(separator: ", "))];"
      )
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `children 0..*\nCascade, ordered`.
  private static func label(_ end: ModelGraph.End) -> String {
    "\(end.name) \(end.multiplicity)\n\(end.deletionRule.rawValue)\(end.isOrdered ? ", ordered" : "")"
  }

  /// A DOT string: quotes and backslashes escaped, new lines as `\n`.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for character in text {
      switch character {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": break
      default: out.append(character)
      }
    }
    return out + "\""
  }

  /// Text in an HTML-like label.
  static func html(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(character)
      }
    }
    return out
  }
}
