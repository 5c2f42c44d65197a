import OutlineCore
import OutlineValidation
import OutlineXML
import Testing

/// A validator told the document's size makes room in its id table once the first ids show
/// how many to expect. However the ids are spread (evenly, all at the start, most at the
/// end), it must find exactly what one that grew step by step finds.
@Suite struct IDTableProjectionTests {
  enum Spread: CaseIterable { case even, atTheStart, atTheEnd }

  /// 12,000 items; 9,000 ids spread as `spread` says; every 1,000th id written twice, and a
  /// reference to an id early, late and missing.
  static func document(_ spread: Spread) -> [UInt8] {
    var text = "<outline version=\"1\">\n"
    var next = 0
    for index in 0..<12_000 {
      let hasID: Bool
      switch spread {
      case .even: hasID = index % 4 != 0
      case .atTheStart: hasID = index < 9_000
      case .atTheEnd: hasID = index >= 3_000
      }
      if hasID {
        let id = next % 1_000 == 999 ? "i\(next - 1)" : "i\(next)"
        text += "  <Item xml:id=\"\(id)\" title=\"t\(index)\" order=\"\(index)\"/>\n"
        next += 1
      } else {
        text += "  <Item title=\"plain \(index) with a longer title\" order=\"\(index)\"/>\n"
      }
    }
    return Array(text.utf8) + Array("</outline>\n".utf8)
  }

  static func diagnostics(_ bytes: [UInt8], prepared: Bool) -> [String] {
    let validator = OutlineValidator(modelProvider: fixedModel())
    if prepared { validator.prepare(forDocumentBytes: bytes.count) }
    XMLEventParser.parse(bytes, handler: validator)
    validator.finish()
    return validator.diagnostics.map {
      "\($0.range.start) \($0.code.rawValue) \($0.message) \($0.related.count)"
    }
  }

  @Test(arguments: Spread.allCases)
  func aPreparedTableFindsWhatAGrownOneFinds(spread: Spread) {
    let bytes = Self.document(spread)
    let grown = Self.diagnostics(bytes, prepared: false)
    let prepared = Self.diagnostics(bytes, prepared: true)
    #expect(prepared == grown)
    #expect(grown.filter { $0.contains("is used twice") }.count == 9)
  }
}
