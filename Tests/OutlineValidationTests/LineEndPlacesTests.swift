import OutlineCore
import OutlineModel
import OutlineValidation
import TestSupport
import Testing

/// Where the validator and the model loader put what they find, at any line end, in process:
/// a mismatched end tag points at the element it should close, an id list written over lines
/// keeps its ids apart, content after the root is extra content, and a model cut short ends
/// open. (Each face of a document cut short goes through the binaries in
/// TruncatedDocumentCLITests.)
@Suite struct LineEndPlacesTests {
  /// Each diagnostic as `line:col: severity[code]: message`, 1-based, columns in Unicode scalars
  /// as `path:line:col` shows them, with its related places after it.
  static func lines(_ diagnostics: [Diagnostic], in source: SourceText) -> [String] {
    func at(_ offset: Int) -> String {
      let position = source.position(of: offset, unit: .scalar)
      return "\(position.line + 1):\(position.column + 1)"
    }
    return Diagnostic.sortedByPosition(diagnostics).flatMap { diagnostic in
      ["\(at(diagnostic.range.start)): \(diagnostic.severity)[\(diagnostic.code)]: \(diagnostic.message)"]
        + diagnostic.related.map { "  \(at($0.range.start)): note: \($0.message)" }
    }
  }

  /// The lines of the model loader's diagnostics for the model `text`.
  static func modelCheck(_ text: String) -> [String] {
    let source = SourceText(text)
    return lines(ModelLoader.load(source).diagnostics, in: source)
  }

  /// A mismatched end tag points at the element it should close with a note at its exact
  /// place, not libxml2's line number (counted at `\n` alone, so wrong with lone `\r` line
  /// ends), in a document and in a model.
  @Test(arguments: ["\n", "\r\n", "\r"])
  func theNotePointsAtTheOpenElement(ending: String) {
    let document = [
      "<outline version=\"1\">", "  <Item order=\"0\">", "    <Item order=\"0\"/>", "  </Itm>", "</outline>",
      "",
    ]
    .joined(separator: ending)
    let model = [
      "<?xml version=\"1.0\"?>", "<model type=\"com.apple.IDECoreDataModeler.DataModel\">",
      "  <entity name=\"Item\">", "  </entit>", "</model>", "",
    ].joined(separator: ending)
    let lint = SemanticsTests.lint(document, model: ModelLoader.defaultModel)
    #expect(lint.contains("4:9: error[OL100]: Opening and ending tag mismatch: Item and Itm"), "\(lint)")
    #expect(lint.contains("  2:4: note: the element it should close"), "\(lint)")
    let check = Self.modelCheck(model)
    #expect(check.contains { $0.contains("Opening and ending tag mismatch: entity and entit") }, "\(check)")
    #expect(check.contains("  3:4: note: the element it should close"), "\(check)")
  }

  static let friends = ModelFixtures.friends

  /// An id list written over lines keeps its ids apart at any line end, `\r\n` included (one
  /// `Character` to Swift): a to-one holding two ids so written is OL503.
  @Test(arguments: ["\n", "\r\n", "\r"])
  func idsAcrossALineEndAreTwo(ending: String) {
    let document =
      "<outline version=\"1\" model=\"V.xcdatamodel\"><Item xml:id=\"a\" friend=\"a\(ending)b\"/><Item xml:id=\"b\"/></outline>\n"
    let lint = SemanticsTests.lint(document, model: ModelLoader.load(SourceText(Self.friends)))
    #expect(lint.contains { $0.contains("error[OL503]") && $0.contains("holds 2 ids") }, "\(lint)")
  }

  /// Content after the root element closed is extra content.
  @Test func contentAfterTheRootIsExtraContent() {
    let lint = SemanticsTests.lint("<outline/>\n<outline/>\n", model: ModelLoader.defaultModel)
    #expect(lint.first == "2:1: error[OL100]: Extra content at the end of the document", "\(lint)")
  }

  /// A model cut short is said to end while its elements are open, at its end, with a note at
  /// the innermost one's start tag, whatever the line ends.
  @Test(arguments: ["\n", "\r\n", "\r"])
  func aModelCutShortIsSaidToEndOpen(ending: String) {
    let model = [
      "<?xml version=\"1.0\"?>", "<model type=\"com.apple.IDECoreDataModeler.DataModel\">",
      "  <entity name=\"Item\">", "    <attribute name=\"order\" attributeType=\"Integer 64\"/>", "",
    ].joined(separator: ending)
    let check = Self.modelCheck(model)
    #expect(
      Array(check.prefix(2)) == [
        "5:1: error[OM100]: The document ends while 2 elements are still open: the innermost, <entity>, has no end tag",
        "  3:4: note: the element left open",
      ], "\(check)")
  }

  /// Text inside an element is reported where it starts, also when libxml2 hands it over
  /// copied (non-ASCII text, references, carriage returns) and an `&` came earlier in the file.
  @Test func textIsReportedWhereItStarts() {
    let document = """
      <?xml version="1.0" encoding="UTF-8"?>
      <outline version="1">
        <Item title="R&amp;D" order="0"/>
        <Item title="plan" order="1">café text</Item>
        <Item title="x" order="2">a &amp; b</Item>
        <Item title="y" order="3">\r\n  über\r\n</Item>
      </outline>

      """
    let lint = SemanticsTests.lint(document, model: ModelLoader.defaultModel)
    let places = lint.filter { $0.contains("[OL105]") }.map { $0.prefix { $0 != " " } }
    #expect(places == ["4:32:", "5:29:", "7:3:"], "\(lint)")
  }

  /// `line:column code` of each problem.
  static func places(_ lint: [String]) -> [String] {
    lint.filter { !$0.hasPrefix(" ") }.map { line in
      let head = line.split(separator: ":")
      let code = line[line.range(of: "[")!.upperBound...].prefix(5)
      return "\(head[0]):\(head[1]) \(code)"
    }
  }

  /// The same document written with `\r\n` or a lone `\r` gets its problems at the same lines
  /// and columns as with `\n`; no message holds a `\r` of the next line.
  @Test(arguments: ["\r\n", "\r"])
  func lintReportsTheSamePlacesForEveryLineEnd(ending: String) {
    let lf = SemanticsTests.lint(LineEndDocument.text, model: ModelLoader.defaultModel)
    let other = SemanticsTests.lint(LineEndDocument.written(ending), model: ModelLoader.defaultModel)
    let expected = Self.places(lf)
    #expect(expected.count >= 3, "\(lf)")
    #expect(expected.contains("4:29 OL105"), "\(lf)")
    #expect(Self.places(other) == expected, "\(other)")
    #expect(!other.joined().contains("\r"), "\(other.debugDescription)")
  }
}
