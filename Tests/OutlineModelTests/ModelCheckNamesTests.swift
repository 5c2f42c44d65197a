import OutlineCore
import OutlineModel
import TestSupport
import Testing

/// `model check` of names no document can spell, in process: each an error (OM218) at its
/// place, and nothing else. (`new` refusing such a model goes through the binary in
/// ModelNamesCLITests.)
@Suite struct ModelCheckNamesTests {
  static let badNames = ModelFixtures.badNames

  /// Every name no document can spell is an error at its place; before, the model checked clean.
  @Test func modelCheckReportsEveryNameThatIsNotAnXMLName() {
    let source = SourceText(Self.badNames)
    let model = ModelLoader.load(source)
    let lines = Diagnostic.sortedByPosition(model.diagnostics).map { diagnostic in
      let position = source.position(of: diagnostic.range.start, unit: .scalar)
      return
        "\(position.line + 1):\(position.column + 1): \(diagnostic.severity)[\(diagnostic.code)]: \(diagnostic.message)"
    }
    #expect(
      lines == [
        "3:17: error[OM218]: Entity 'My Folder' cannot be an XML element name, so no document can write it: ' ' (U+0020) cannot be in a name",
        "3:45: error[OM218]: Attribute 'My Folder.has space' cannot be an XML attribute name, so no document can write it: ' ' (U+0020) cannot be in a name",
        "5:20: error[OM218]: Attribute 'Item.x:y:z' cannot be an XML attribute name, so no document can write it: a name may hold one ':', between a namespace prefix and a local name, and nothing else",
        "5:83: error[OM218]: Attribute 'Item.1abc' cannot be an XML attribute name, so no document can write it: a name cannot start with '1'",
      ], "\(lines)")
    #expect(model.diagnostics.allSatisfy { $0.related.isEmpty })
  }
}
