import Foundation
import OutlineConvert
import TestSupport
import Testing

/// `outline import` writes only what lints, and `outline export` gives back what it read (issue 32,
/// items 5 and 9): an id that is no XML name or comes twice, or a name that would get a prefix of
/// the format's, is refused at its place with nothing written; the head's fields come back in
/// their order. Then the property over generated OPML.
@Suite struct ImportIDsCLITests {
  /// The files in `folder`, sorted.
  static func files(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  static func read(_ url: URL) throws -> OPMLDocument {
    try OPMLReader.read([UInt8](try Data(contentsOf: url))).0.get()
  }

  @Test func whatAnOutlineCannotHoldIsRefusedAtItsPlace() throws {
    let cases = [
      (
        "<opml version=\"2.0\">\n<head/><body>\n  <outline text=\"a\" xml:id=\"1bad\"/>\n</body></opml>\n",
        "in.opml:3:29: error: The xml:id '1bad' is not an XML name"
      ),
      (
        "<opml version=\"2.0\">\n<head/><body>\n  <outline xml:id=\"a\"/>\n  <outline xml:id=\"a\"/>\n</body></opml>\n",
        "in.opml:4:20: error: The xml:id 'a' is used twice (first at 3:20)"
      ),
      (
        "<opml version=\"2.0\" xml:lang=\"en\"><head/><body/></opml>\n",
        "in.opml:1:21: error: The <opml> attribute 'xml:lang' would be the attribute 'opml.xml:lang'"
      ),
      (
        "<opml version=\"2.0\"><head/><body xml:id=\"b\"/></opml>\n",
        "in.opml:1:34: error: The <body> attribute 'xml:id' would be the attribute 'body.xml:id'"
      ),
    ]
    for (opml, expected) in cases {
      let folder = try CLI.temporaryFolder()
      try CLI.write(["in.opml": opml], in: folder)
      let run = try CLI.run("outline", ["import", "in.opml"], in: folder)
      #expect(run.status == 1)
      #expect(run.stderr.hasPrefix(expected), "\(run.stderr)")
      #expect(run.stderr.contains("in.opml was not imported; nothing was written"))
      #expect(try Self.files(folder) == ["in.opml"])
    }
  }

  // MARK: Property

  /// Values, some of them hard for XML.
  static let values = ["", "v", "a b", "tab\there", "line\nfeed", "cr\r\nlf", "<&>\"'", "]]>", "é 中 🚆", "  "]

  static func value(_ random: inout SeededGenerator) -> String {
    values.randomElement(using: &random)!
  }

  /// `value` as an attribute value, escaped by hand.
  static func attribute(_ value: String) -> String {
    value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\t", with: "&#9;")
      .replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\r", with: "&#13;")
  }

  /// `value` as text, escaped by hand.
  static func text(_ value: String) -> String {
    value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\r", with: "&#13;")
  }

  /// Head field names: the OPML model's, the format's, prefixed ones, odd ones.
  static let headNames =
    OPMLConversion.headFields + [
      "version", "model", "modelVersion", "entity", "outlines", "opmlVersion", "xmlns", "opml.a", "body.b",
      "head.c", "x:field", "xml:lang", "extra", "_u", "é",
    ]
  /// `<outline>` attribute names.
  static let outlineNames =
    OPMLConversion.outlineAttributes + [
      "order", "children", "parent", "document", "opml.order", "x:n", "xml:lang", "xml:space", "custom",
      "a-b",
    ]
  /// `<opml>` and `<body>` attribute names.
  static let plainNames = ["a", "title", "version2", "opml.z", "x"]
  /// Ids that are XML names.
  static let ids = ["a", "b", "_c", "d-1", "é", "f.g"]
  /// Names and ids a hostile file adds: prefixes given another, undeclared prefixes, ids that are
  /// no XML names.
  static let hostileHeadNames = ["xml:id", "dc:creator", "opml.x:y"]
  static let hostileOutlineNames = ["opml.x:n", "dc:n"]
  static let hostilePlainNames = ["x:o", "xml:lang", "xml:id"]
  static let hostileIDs = ["1bad", "", "a b", "x:y", "-z", "a"]

  /// A generated OPML file: random head fields in random order, nested outlines with random
  /// attributes and ids. One in three is hostile: it may hold names and ids an `.outline` cannot.
  static func opml(_ random: inout SeededGenerator) -> String {
    let hostile = Int.random(in: 0..<3, using: &random) == 0
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\" xmlns:x=\"urn:x\""
    if hostile && Bool.random(using: &random) { text += " xmlns:opml.x=\"urn:o\"" }
    func attributes(_ names: [String], count: ClosedRange<Int>, _ random: inout SeededGenerator) -> String {
      var chosen: [String] = []
      for _ in 0..<Int.random(in: count, using: &random) {
        let name = names.randomElement(using: &random)!
        if !chosen.contains(name) { chosen.append(name) }
      }
      return chosen.map { " \($0)=\"\(attribute(value(&random)))\"" }.joined()
    }
    let plain = plainNames + (hostile ? hostilePlainNames : [])
    text += attributes(plain, count: 0...2, &random) + ">\n  <head>\n"
    var head = (headNames + (hostile ? hostileHeadNames : [])).shuffled(using: &random)
      .prefix(Int.random(in: 0...8, using: &random))
    // Now and then a field twice, which import refuses.
    if hostile && Bool.random(using: &random), let first = head.first { head.append(first) }
    for name in head { text += "    <\(name)>\(Self.text(value(&random)))</\(name)>\n" }
    text += "  </head>\n  <body\(attributes(plain, count: 0...1, &random))>\n"
    var unused = ids.shuffled(using: &random)
    var depth = 0
    for _ in 0..<Int.random(in: 0...12, using: &random) {
      // A child of the last outline, its sibling or an ancestor's: the outlines open above it stay open.
      let next = max(0, min(depth - Int.random(in: 0...2, using: &random), 6))
      while depth > next {
        depth -= 1
        text += String(repeating: "  ", count: depth + 2) + "</outline>\n"
      }
      depth = next
      var tag = "<outline"
      if Int.random(in: 0..<3, using: &random) == 0,
        let id = hostile && Bool.random(using: &random)
          ? hostileIDs.randomElement(using: &random) : unused.popLast()
      {
        tag += " xml:id=\"\(attribute(id))\""
      }
      tag += attributes(outlineNames + (hostile ? hostileOutlineNames : []), count: 0...4, &random)
      text += String(repeating: "  ", count: depth + 2) + tag + ">\n"
      depth += 1
    }
    while depth > 0 {
      depth -= 1
      text += String(repeating: "  ", count: depth + 2) + "</outline>\n"
    }
    return text + "  </body>\n</opml>\n"
  }

  @Test func importWritesWhatLintsAndExportGivesItBack() throws {
    let base = try CLI.temporaryFolder()
    var imports = 0
    try Property.check(
      "import lints (in fmt's layout) or refuses; import -> export -> import; the head's order", cases: 40
    ) {
      random, seed in
      let opml = Self.opml(&random)
      let folder = base.appendingPathComponent("\(seed)")
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("again"), withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      try CLI.write(["in.opml": opml], in: folder)
      let run = try CLI.run("outline", ["import", "in.opml", "-o", "a.outline"], in: folder)
      guard run.status == 0 else {
        guard run.status == 1 || run.status == 2, run.stderr.contains("nothing was written") else {
          return "import exited \(run.status): \(run.stderr)\n\(opml)"
        }
        let left = try Self.files(folder)
        return left == ["again", "in.opml"] ? nil : "a refused import left \(left)\n\(opml)"
      }
      imports += 1
      let lint = try CLI.run("outline-lint", ["a.outline"], in: folder)
      guard lint.status == 0 else { return "the import does not lint:\n\(lint.stdout)\n\(opml)" }
      let fmt = try CLI.run("outline", ["fmt", "--check", "a.outline"], in: folder)
      guard fmt.status == 0 else { return "the import is not in fmt's layout\n\(opml)" }
      let export = try CLI.run("outline", ["export", "a.outline", "-o", "out.opml"], in: folder)
      guard export.status == 0 else { return "export refused the import:\n\(export.stderr)\n\(opml)" }
      let original = try Self.read(folder.appendingPathComponent("in.opml"))
      let exported = try Self.read(folder.appendingPathComponent("out.opml"))
      guard exported.head.map(\.name) == original.head.map(\.name) else {
        return
          "export wrote the head as \(exported.head.map(\.name)), not \(original.head.map(\.name))\n\(opml)"
      }
      let again = try CLI.run("outline", ["import", "out.opml", "-o", "again/a.outline"], in: folder)
      guard again.status == 0 else { return "the export does not import:\n\(again.stderr)\n\(opml)" }
      for name in ["a.outline", "a.xcdatamodel/contents"] {
        let first = try Data(contentsOf: folder.appendingPathComponent(name))
        let second = try Data(contentsOf: folder.appendingPathComponent("again/" + name))
        if first != second {
          return
            "import -> export -> import changed \(name):\n\(String(decoding: second, as: UTF8.self))\nfrom\n\(String(decoding: first, as: UTF8.self))\nfor\n\(opml)"
        }
      }
      return nil
    }
    // The generator makes importable files, not only refused ones.
    #expect(imports >= 20, "only \(imports) of the generated files imported")
  }
}
