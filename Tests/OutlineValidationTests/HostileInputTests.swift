import Foundation
import OutlineCore
import OutlineModel
import TestSupport
import Testing

@testable import OutlineValidation

/// Named hostile inputs (issue 7): each one gets diagnostics, never a crash,
/// never an expansion, within a bound on time.
@Suite struct HostileInputTests {
  /// Under a sanitizer (scripts/sanitize sets OUTLINE_SANITIZER) code runs
  /// several times slower; the bounds are for guarding against blow-ups, so
  /// they stretch with it.
  static let slowdown = ProcessInfo.processInfo.environment["OUTLINE_SANITIZER"] == nil ? 1.0 : 10.0

  func check(_ bytes: [UInt8], seconds: Double = 20) -> [Diagnostic] {
    let start = Date()
    let result = OutlineValidator.validate(SourceText(bytes: bytes)).diagnostics
    #expect(Date().timeIntervalSince(start) < seconds * Self.slowdown)
    return result
  }

  func check(_ text: String) -> [Diagnostic] { check(Array(text.utf8)) }

  @Test func billionLaughsIsRefusedBeforeAnythingExpands() {
    var doctype = "<!DOCTYPE outline [<!ENTITY lol \"lol\">"
    for level in 1...9 {
      doctype +=
        "<!ENTITY lol\(level) \""
        + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
    }
    doctype += "]>"
    let diagnostics = check(
      "<?xml version=\"1.0\"?>\n\(doctype)\n<outline><Item title=\"&lol9;\" order=\"0\"/></outline>")
    #expect(diagnostics.map(\.code) == [.doctypePresent])
  }

  @Test func externalEntitiesAreNeverRead() {
    let secret = Scratch.url("outline-secret", suffix: ".txt")
    try? Data("TOP-SECRET-CONTENT".utf8).write(to: secret)
    defer { try? FileManager.default.removeItem(at: secret) }
    for declaration in [
      "<!DOCTYPE outline [<!ENTITY xxe SYSTEM \"file://\(secret.path)\">]>",
      "<!DOCTYPE outline [<!ENTITY xxe SYSTEM \"http://127.0.0.1:9/x\">]>",
      "<!DOCTYPE outline SYSTEM \"file://\(secret.path)\">",
      "<!DOCTYPE outline [<!ENTITY % p SYSTEM \"file://\(secret.path)\"> %p;]>",
    ] {
      let diagnostics = check("\(declaration)\n<outline><Item title=\"&xxe;\" order=\"0\"/></outline>")
      #expect(diagnostics.first?.code == .doctypePresent, "\(declaration)")
      #expect(!diagnostics.contains { $0.message.contains("TOP-SECRET") })
    }
  }

  @Test func undeclaredEntityReferencesAreSyntaxErrors() {
    #expect(check("<outline><Item title=\"&nope;\" order=\"0\"/></outline>").map(\.code) == [.notWellFormed])
  }

  @Test func invalidUTF8NULAndLyingEncodings() {
    #expect(
      check(
        [0x3C, 0x6F, 0x75, 0x74, 0x6C, 0x69, 0x6E, 0x65, 0x3E, 0xFF, 0xFE, 0x3C, 0x2F]
          + Array("outline>".utf8)
      ).first?.code == .notWellFormed)
    #expect(
      check(Array("<outline><Item title=\"a\u{0}b\" order=\"0\"/></outline>".utf8)).first?.code
        == .notWellFormed)
    // UTF-16 with a byte order mark, and a declaration that lies about UTF-8 bytes.
    let utf16 =
      [UInt8]([0xFF, 0xFE]) + Array("<outline/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    #expect(check(utf16).map(\.code) == [.notWellFormed])
    #expect(check("<?xml version=\"1.0\" encoding=\"UTF-16\"?><outline/>").map(\.code) == [.notWellFormed])
    #expect(
      check("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><outline title=\"é\"/>").map(\.code) == [
        .notWellFormed
      ])
  }

  @Test func hugeAttributeValueAndManyAttributes() {
    let big =
      "<outline><Item title=\"" + String(repeating: "x", count: 50_000_000) + "\" order=\"0\"/></outline>"
    let diagnostics = check(big)
    #expect(diagnostics.count <= 1)  // libxml2's attribute-length guard, or nothing
    var many = "<outline><Item order=\"0\""
    for index in 0..<10_000 { many += " a\(index)=\"\(index)\"" }
    many += "/></outline>"
    let unknown = check(many)
    #expect(unknown.count == 10_000)
    #expect(unknown.allSatisfy { $0.code == .unknownAttribute })
  }

  @Test func millionSiblings() {
    var text = "<outline>\n"
    text.reserveCapacity(30_000_000)
    for index in 0..<1_000_000 { text += "<Item order=\"\(index)\"/>\n" }
    text += "</outline>\n"
    #expect(check(Array(text.utf8), seconds: 60).isEmpty)
  }

  @Test(arguments: [
    "<outline", "<outline><Item", "<outline><Item title=\"", "<outline><Item title='x'", "<outline><!--",
    "<outline><![CDATA[", "<outline><?pi", "<outline></Item>", "<outline><Item order=\"0\">", "<", "<?xml",
    "<outline><Item title=\"a\" title=\"b\" order=\"0\"/></outline>",
    "<outline xmlns:x=\"u\"><x:Item/></outline>",
  ])
  func unterminatedAndOddConstructs(_ text: String) {
    let diagnostics = check(text)
    #expect(!diagnostics.isEmpty, "\(text)")
  }

  @Test func hostileModelFiles() {
    let doctype = ModelLoader.load(SourceText("<!DOCTYPE model [<!ENTITY a \"b\">]><model/>"))
    #expect(doctype.diagnostics.map(\.code) == [.modelNotWellFormed])
    var deep = "<model>"
    for _ in 0..<100_000 { deep += "<x>" }
    for _ in 0..<100_000 { deep += "</x>" }
    deep += "</model>"
    #expect(ModelLoader.load(SourceText(deep)).diagnostics.isEmpty)
    var wide = "<model>"
    for index in 0..<20_000 {
      wide +=
        "<entity name=\"E\(index)\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
    }
    wide += "</model>"
    #expect(ModelLoader.load(SourceText(wide)).entities.count == 20_000)
  }
}

/// A document cut short is said to end with its elements open, at its end, with a note at the
/// innermost one's start tag, exact whatever the line ends.
@Suite struct UnclosedDocumentTests {
  @Test(arguments: ["\n", "\r\n", "\r"])
  func theNotePointsAtTheInnermostOpenElement(ending: String) throws {
    let text = ["<outline version=\"1\">", "  <Item order=\"0\" title=\"a\">", "    <Item order=\"0\"/>", ""]
      .joined(separator: ending)
    let diagnostics = validate(text)
    let diagnostic = try #require(diagnostics.first { $0.code == .notWellFormed })
    #expect(
      diagnostic.message
        == "The document ends while 2 elements are still open: the innermost, <Item>, has no end tag")
    #expect(diagnostic.range == TextRange(at: text.utf8.count))
    // The name of the second line's <Item>, left open.
    let innermost = ("<outline version=\"1\">" + ending + "  <").utf8.count
    #expect(
      diagnostic.related == [
        RelatedLocation(
          range: TextRange(start: innermost, end: innermost + 4), message: "the element left open")
      ])
    let source = SourceText(text)
    #expect(source.position(of: diagnostic.range.start, unit: .utf16).line == 3)
    #expect(source.position(of: innermost, unit: .utf16).line == 1)
    #expect(source.position(of: innermost, unit: .utf16).column == 3)
  }

  @Test func contentAfterTheRootIsExtraContent() {
    let diagnostics = validate("<outline version=\"1\"/>\n<outline/>\n")
    #expect(diagnostics.map(\.message) == ["Extra content at the end of the document"])
    #expect(diagnostics.first?.related == [])
  }
}
