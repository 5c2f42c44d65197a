import Foundation
import OutlineCore
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// One self-contained HTML page of an outline: a collapsible tree with item
/// numbers (1.3.2), each item's attributes, and the diagnostics at the item
/// where they occur, after a summary. Nothing is loaded from anywhere (the
/// style and script are inline, under a Content-Security-Policy that allows
/// only them), and every value from the file is escaped.
///
/// Items are rows of one flat list, indented by depth, so any depth renders
/// (browsers flatten markup nested past a few hundred levels) and the whole
/// page is written in one pass, linear in the file.
enum HTMLPage {
  /// Levels of indentation drawn; deeper items are drawn at this level and say their depth.
  static let indentLevels = 30
  /// Path segments shown in a deep item's number (`….4.1.2`), so numbers stay short.
  static let numberSegments = 6

  static func render(
    path: String, source: SourceText, tree: ItemTree?, diagnostics: [Diagnostic], modelName: String?
  ) -> String {
    let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "")
    let sorted = Diagnostic.sortedByPosition(diagnostics)
    let items = tree?.items ?? []
    let owners = owningItems(sorted, items: items)
    // Every diagnostic's line, its position found in one pass over the file.
    let places = PositionTable(offsets: sorted.map(\.range.start), in: source, unit: .scalar)
    let lines = sorted.map { diagnosticLine($0, at: DisplayPosition(places.position(of: $0.range.start))) }
    var page = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-\(nonce)'; script-src 'nonce-\(nonce)'; base-uri 'none'; form-action 'none'">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(escape(title(path: path, source: source, items: items)))</title>
      <style nonce="\(nonce)">\(style)</style>
      </head>
      <body>
      <header>
      <h1>\(escape(path))</h1>

      """
    page += summary(sorted, lines: lines, items: items, owners: owners, modelName: modelName)
    page += "</header>\n"
    if !items.isEmpty {
      page += """
        <nav><button type="button" id="expand-all">Expand all</button> <button type="button" id="collapse-all">Collapse all</button></nav>
        <div id="tree" role="tree">

        """
      writeRows(into: &page, source: source, items: items, diagnostics: sorted, lines: lines, owners: owners)
      page += "</div>\n"
    }
    page += "<script nonce=\"\(nonce)\">\(script)</script>\n</body>\n</html>\n"
    return page
  }

  /// The page title: the root's title when it has one, else the file name.
  private static func title(path: String, source: SourceText, items: [Item]) -> String {
    if let range = items.first?.titleRange {
      let text = attributeText(source, range)
      if !text.isEmpty { return text }
    }
    return URL(fileURLWithPath: path).lastPathComponent
  }

  /// The counts, and every diagnostic with a link to its item.
  private static func summary(
    _ diagnostics: [Diagnostic], lines: [String], items: [Item], owners: [Int], modelName: String?
  ) -> String {
    var counts: [Severity: Int] = [:]
    for diagnostic in diagnostics { counts[diagnostic.severity, default: 0] += 1 }
    var parts = [
      counted(items.count, "item"), counted(counts[.error] ?? 0, "error"),
      counted(counts[.warning] ?? 0, "warning"),
    ]
    if let hints = counts[.hint], hints > 0 { parts.append(counted(hints, "hint")) }
    if let notes = counts[.information], notes > 0 { parts.append(counted(notes, "note")) }
    var out = "<p id=\"summary\">\(parts.joined(separator: ", "))"
    if let modelName { out += "; model \(escape(modelName))" }
    out += "</p>\n"
    if items.isEmpty { out += "<p>The file did not parse far enough to show a tree.</p>\n" }
    guard !diagnostics.isEmpty else { return out }
    out += "<details id=\"diagnostics\" open><summary>Diagnostics</summary>\n<ul class=\"diagnostics\">\n"
    for (index, diagnostic) in diagnostics.enumerated() {
      out += "<li class=\"\(diagnostic.severity)\">"
      let line = lines[index]
      out += owners[index] >= 0 ? "<a href=\"#i\(owners[index])\">\(line)</a>" : line
      out += "</li>\n"
    }
    return out + "</ul>\n</details>\n"
  }

  /// `3:5 error[OL401] message`, escaped.
  private static func diagnosticLine(_ diagnostic: Diagnostic, at position: DisplayPosition) -> String {
    return
      "<span class=\"where\">\(position.line):\(position.column)</span> <span class=\"severity\">\(diagnostic.severity)[\(escape(diagnostic.code.rawValue))]</span> \(escape(diagnostic.message))"
  }

  /// For each diagnostic (sorted by position), the innermost item whose
  /// element holds its start, or -1: one sweep over items and diagnostics.
  static func owningItems(_ diagnostics: [Diagnostic], items: [Item]) -> [Int] {
    var owners = [Int](repeating: -1, count: diagnostics.count)
    // The open path: the previous item and those of its ancestors not yet closed.
    var open: [Int] = []
    var next = 0
    func assign(before limit: Int) {
      while next < diagnostics.count && diagnostics[next].range.start < limit {
        let offset = diagnostics[next].range.start
        while let top = open.last, items[top].fullRange.end <= offset, top != 0 { open.removeLast() }
        owners[next] = open.last ?? -1
        next += 1
      }
    }
    for index in items.indices {
      assign(before: items[index].startTag.start)
      while let top = open.last, top != Int(items[index].parent) { open.removeLast() }
      open.append(index)
    }
    assign(before: Int.max)
    return owners
  }

  /// The rows, in document order, with an explicit stack of the open path for the numbers.
  private static func writeRows(
    into page: inout String, source: SourceText, items: [Item], diagnostics: [Diagnostic], lines: [String],
    owners: [Int]
  ) {
    // (item, children numbered so far, this item's own number segment)
    var path: [(item: Int, counter: Int, segment: String)] = []
    var byItem: [Int: [Int]] = [:]
    for (index, owner) in owners.enumerated() where owner >= 0 { byItem[owner, default: []].append(index) }
    var attributes: [RawAttribute] = []
    source.bytes.withByteView { bytes in
      for index in items.indices {
        let item = items[index]
        while let last = path.last, last.item != Int(item.parent) { path.removeLast() }
        var segment = ""
        if index > 0 {
          if item.relationship >= 0 && !path.isEmpty {
            path[path.count - 1].counter += 1
            segment = String(path[path.count - 1].counter)
          } else {
            segment = "–"
          }
        }
        path.append((index, 0, segment))
        let depth = path.count - 1
        let number: String
        if index == 0 {
          number = ""
        } else if depth <= numberSegments {
          number = path.dropFirst().map(\.segment).joined(separator: ".")
        } else {
          number = "…." + path.suffix(numberSegments).map(\.segment).joined(separator: ".")
        }
        let end = Int(item.subtreeEnd)
        let found = byItem[index] ?? []
        var classes = "item d\(min(depth, indentLevels))"
        if let worst = found.map({ diagnostics[$0].severity }).min() { classes += " has-\(worst)" }
        page +=
          "<div class=\"\(classes)\" id=\"i\(index)\" data-i=\"\(index)\" data-end=\"\(end)\" role=\"treeitem\" aria-level=\"\(depth + 1)\">"
        if end > index + 1 {
          page +=
            "<button type=\"button\" class=\"tw\" aria-expanded=\"true\" aria-label=\"Collapse\"></button>"
        } else {
          page += "<span class=\"tw\"></span>"
        }
        if !number.isEmpty { page += "<span class=\"num\">\(number)</span> " }
        let tag = bytes.extracting(item.startTag.start..<item.startTag.end)
        let name = tag.extracting(1..<1 + Int(item.nameLength)).string
        page += "<span class=\"entity\">\(escape(name))</span>"
        if depth > indentLevels { page += " <span class=\"depth\">level \(depth)</span>" }
        if let range = item.titleRange {
          page += " <span class=\"title\">\(escape(attributeText(source, range)))</span>"
        }
        // The other attributes as one text (few elements per row keep a large page quick to load).
        TagScanner.withStartTag(tag, at: item.startTag.start, attributes: &attributes) { start in
          var text = ""
          for attribute in 0..<start.attributes.count where start.valueRange(of: attribute) != item.titleRange
          {
            let key = String(decoding: start.name(of: attribute), as: UTF8.self)
            text +=
              "\(text.isEmpty ? "" : " ")\(escape(key))=&quot;\(escape(start.value(of: attribute)))&quot;"
          }
          if !text.isEmpty { page += " <span class=\"attrs\">\(text)</span>" }
        }
        if !found.isEmpty {
          page += "<ul class=\"found\">"
          for diagnostic in found {
            page +=
              "<li class=\"\(diagnostics[diagnostic].severity)\">\(lines[diagnostic])</li>"
          }
          page += "</ul>"
        }
        page += "</div>\n"
      }
    }
  }

  /// An attribute value's text (references decoded).
  private static func attributeText(_ source: SourceText, _ range: TextRange) -> String {
    XMLEscaping.decodeAttribute(Array(source.bytes[range.start..<range.end]))
  }

  /// Text for HTML content and attribute values.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(character)
      }
    }
    return out
  }

  static let style: String = {
    var css = """
      body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 1.5em 2em;color:#1d1d1f;background:#fff}
      h1{font-size:1.2em;margin:1em 0 .3em;word-break:break-all}
      #summary{margin:.2em 0 .6em;color:#444}
      ul.diagnostics,ul.found{list-style:none;margin:.2em 0;padding:0}
      ul.found{margin-left:2.2em}
      li.error .severity{color:#b00020;font-weight:600}
      li.warning .severity{color:#8a5a00;font-weight:600}
      li.information .severity,li.hint .severity{color:#245ea8}
      .where{color:#666;font-family:ui-monospace,monospace}
      nav{margin:.4em 0}
      .item{padding:.1em 0;white-space:nowrap;content-visibility:auto;contain-intrinsic-size:auto 1.6em}
      .item[hidden]{display:none}
      .item.has-error{background:#fff0f0}
      .item.has-warning{background:#fff8e6}
      .tw{display:inline-block;width:1.4em;height:1.4em;border:0;background:none;padding:0;cursor:pointer;vertical-align:middle;font:inherit;color:#555}
      button.tw::before{content:"\\25BE"}
      button.tw[aria-expanded="false"]::before{content:"\\25B8"}
      .num{color:#666;font-variant-numeric:tabular-nums}
      .entity{color:#6a3d9a}
      .title{font-weight:600}
      .attrs{color:#555;margin-left:.6em}
      .depth{color:#999;font-size:.85em}

      """
    for level in 0...indentLevels { css += ".d\(level){padding-left:\(Double(level) * 1.2)em}\n" }
    return css
  }()

  /// Collapsing hides the item's rows up to `data-end`; expanding shows them
  /// again except inside items still collapsed. Linear in the subtree.
  static let script = """

    (function () {
      "use strict";
      var tree = document.getElementById("tree");
      if (!tree) { return; }
      var rows = tree.children;
      function toggle(button, expand) {
        var row = button.parentNode;
        var first = Number(row.getAttribute("data-i")) + 1;
        var end = Number(row.getAttribute("data-end"));
        button.setAttribute("aria-expanded", expand ? "true" : "false");
        button.setAttribute("aria-label", expand ? "Collapse" : "Expand");
        var index = first;
        while (index < end) {
          var child = rows[index];
          child.hidden = !expand;
          var inner = child.firstElementChild;
          if (expand && inner.tagName === "BUTTON" && inner.getAttribute("aria-expanded") === "false") {
            index = Number(child.getAttribute("data-end"));
          } else {
            index += 1;
          }
        }
      }
      tree.addEventListener("click", function (event) {
        var button = event.target;
        if (button.tagName !== "BUTTON" || !button.classList.contains("tw")) { return; }
        toggle(button, button.getAttribute("aria-expanded") !== "true");
      });
      function all(expand) {
        for (var index = 0; index < rows.length; index += 1) {
          var row = rows[index];
          var button = row.firstElementChild;
          if (button.tagName === "BUTTON") {
            button.setAttribute("aria-expanded", expand ? "true" : "false");
            button.setAttribute("aria-label", expand ? "Collapse" : "Expand");
          }
          row.hidden = !expand && index > 0;
        }
      }
      document.getElementById("expand-all").addEventListener("click", function () { all(true); });
      document.getElementById("collapse-all").addEventListener("click", function () { all(false); });
    })();

    """
}
