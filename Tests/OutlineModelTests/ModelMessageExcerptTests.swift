import OutlineCore
import OutlineModel
import Testing

/// Value problems and model checks quote the text they read (a document's value, a model's
/// names and defaults) only as an excerpt: 60 characters, then `...`, controls escaped.
@Suite struct ModelMessageExcerptTests {
  static let long = String(repeating: "9", count: 1_000_000) + "x"
  static let shown = "'" + String(repeating: "9", count: 60) + "...'"

  @Test(arguments: [
    AttributeType.integer64, .double, .float, .decimal, .boolean, .date, .uuid, .uri,
  ])
  func aValueProblemQuotesAnExcerpt(_ type: AttributeType) throws {
    let problem = try #require(ModelValues.problem(with: Self.long, as: type))
    #expect(problem.hasPrefix(Self.shown), "\(problem.prefix(100))")
    #expect(problem.count < 200)
    let broken = try #require(ModelValues.problem(with: "1\n2", as: type))
    #expect(broken.hasPrefix(#"'1\n2'"#), "\(broken)")
  }

  @Test func modelChecksQuoteLongNamesAndDefaultsShortened() {
    let entity = "E" + String(repeating: "n", count: 500)
    let text = modelText(
      """
      <entity name="\(entity)"><attribute name="a" optional="YES" attributeType="Integer 16" defaultValueString="\(Self.long)"/>
      <attribute name="b" optional="YES" attributeType="Nope\(Self.long)"/>
      <relationship name="r" optional="YES" maxCount="1" destinationEntity="Missing\(Self.long)"/></entity>
      """)
    let diagnostics = ModelLoader.load(SourceText(text)).diagnostics
    #expect(diagnostics.count >= 3)
    for diagnostic in diagnostics {
      #expect(diagnostic.message.count < 400, "\(diagnostic.code): \(diagnostic.message.prefix(200))")
    }
    #expect(
      diagnostics.contains { $0.message.contains("'\(entity.prefix(60))...'") },
      "\(diagnostics.map(\.message))")
  }
}
