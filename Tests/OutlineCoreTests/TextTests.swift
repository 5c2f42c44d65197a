import OutlineCore
import Testing

/// Ranges, positions in every column unit, edits and the diagnostic catalog:
/// the vocabulary every other module speaks.
@Suite struct TextTests {
  // "a\r\nbé\n🚆x\n": lines start at 0, 3 and 7; é is 2 UTF-8 bytes, 🚆 is 4 (2 UTF-16 units).
  static let source = SourceText("a\r\nbé\n🚆x\n")

  @Test func rangesContainTheirStartButNotTheirEnd() {
    let range = TextRange(start: 2, end: 5)
    #expect(range.length == 3)
    #expect(range.contains(2) && range.contains(4) && !range.contains(5) && !range.contains(1))
    #expect(range.contains(TextRange(start: 3, end: 5)) && !range.contains(TextRange(start: 3, end: 6)))
    #expect(TextRange(at: 7) == TextRange(start: 7, end: 7))
    #expect(TextRange(start: 1, end: 9) < TextRange(start: 2, end: 3))
    #expect(range.description == "2..<5")
  }

  @Test func linesAndColumnsInEachUnit() {
    let source = Self.source
    #expect(source.lines.lineCount == 4)
    #expect(source.lines.start(ofLine: 1) == 3 && source.lines.start(ofLine: 2) == 7)
    // `x` after 🚆: byte 11 on line 2.
    #expect(source.position(of: 11, unit: .utf8) == SourcePosition(line: 2, column: 4))
    #expect(source.position(of: 11, unit: .utf16) == SourcePosition(line: 2, column: 2))
    #expect(source.position(of: 11, unit: .scalar) == SourcePosition(line: 2, column: 1))
    // The end of `é`, before the line feed.
    #expect(source.position(of: 6, unit: .scalar) == SourcePosition(line: 1, column: 2))
    #expect(SourcePosition(line: 2, column: 1).description == "3:2")
  }

  @Test func offsetsRoundTripAndClampToTheLine() {
    let source = Self.source
    for offset in [0, 1, 3, 4, 6, 7, 11, 12] {
      for unit in [ColumnUnit.utf8, .utf16, .scalar] {
        #expect(
          source.offset(of: source.position(of: offset, unit: unit), unit: unit) == offset,
          "\(offset) \(unit)")
      }
    }
    // Past the line's end: its end, before the line break; past the last line: the text's end.
    #expect(source.offset(of: SourcePosition(line: 0, column: 40), unit: .scalar) == 1)
    #expect(source.offset(of: SourcePosition(line: 9, column: 0), unit: .scalar) == source.bytes.count)
  }

  /// A column inside a character names the character's start, in UTF-8 as in UTF-16: an
  /// edit at such a column never cuts a character in two.
  @Test func columnsInsideACharacterNameItsStart() {
    let source = Self.source
    // `é` is bytes 4 and 5 (line 1, UTF-8 columns 1 and 2); `🚆` bytes 7 to 10 (line 2).
    #expect(source.offset(of: SourcePosition(line: 1, column: 2), unit: .utf8) == 4)
    for column in 1...3 {
      #expect(source.offset(of: SourcePosition(line: 2, column: column), unit: .utf8) == 7, "\(column)")
    }
    #expect(source.offset(of: SourcePosition(line: 2, column: 4), unit: .utf8) == 11)
    #expect(source.offset(of: SourcePosition(line: 2, column: 1), unit: .utf16) == 7)
  }

  @Test func positionsOfARangeMatchPositionsOfItsEnds() {
    let source = Self.source
    for range in [TextRange(start: 3, end: 6), TextRange(start: 0, end: 11), TextRange(start: 7, end: 12)] {
      let both = source.positions(of: range, unit: .utf16)
      #expect(both.start == source.position(of: range.start, unit: .utf16))
      #expect(both.end == source.position(of: range.end, unit: .utf16))
    }
    #expect(source.string(in: TextRange(start: 3, end: 6)) == "bé")
    #expect(source.clamp(TextRange(start: 10, end: 99)) == TextRange(start: 10, end: source.bytes.count))
  }

  @Test func editsApplyInAnyOrderAndRefuseOverlaps() {
    let bytes = Array("order=\"5\" title=\"x\"".utf8)
    let edits = [
      TextEdit(range: TextRange(start: 17, end: 18), newText: "yz"),
      TextEdit(range: TextRange(start: 7, end: 8), newText: "0"),
      TextEdit(range: TextRange(at: 0), newText: "id=\"a\" "),
    ]
    #expect(
      TextEdit.apply(edits, to: bytes).map { String(decoding: $0, as: UTF8.self) }
        == "id=\"a\" order=\"0\" title=\"yz\"")
    #expect(TextEdit.apply([], to: bytes) == bytes)
    let overlapping = [
      TextEdit(range: TextRange(start: 0, end: 5), newText: ""),
      TextEdit(range: TextRange(start: 4, end: 6), newText: ""),
    ]
    #expect(TextEdit.apply(overlapping, to: bytes) == nil)
    #expect(TextEdit.apply([TextEdit(range: TextRange(start: 10, end: 99), newText: "")], to: bytes) == nil)
  }

  @Test func theCatalogDefinesEveryCodeOnce() {
    let codes = DiagnosticCatalog.entries.map(\.code)
    #expect(Set(codes).count == codes.count)
    for entry in DiagnosticCatalog.entries {
      #expect(DiagnosticCatalog.entry(for: entry.code) == entry)
      #expect(entry.code.defaultSeverity == entry.severity)
      #expect(!entry.title.isEmpty && !entry.help.isEmpty, "\(entry.code)")
    }
    #expect(DiagnosticCatalog.entry(for: DiagnosticCode(rawValue: "OL999")) == nil)
    #expect(DiagnosticCode.duplicateOrder.rawValue == "OL401")
  }

  /// Each code's Markdown section is the one the whole catalog's Markdown holds.
  @Test func eachCodesMarkdownIsItsSectionOfTheCatalog() throws {
    let catalog = DiagnosticCatalog.markdown()
    for entry in DiagnosticCatalog.entries {
      let section = DiagnosticCatalog.markdown(entry)
      #expect(section.hasPrefix("## \(entry.code)\n\n**\(entry.title)** (\(entry.severity))\n"))
      #expect(catalog.contains("\n" + section), "\(entry.code)")
      #expect(!section.contains("| code |"))
    }
    let entry = try #require(DiagnosticCatalog.entry(for: .duplicateOrder))
    #expect(DiagnosticCatalog.markdown(entry).components(separatedBy: "## ").count == 2)
  }

  @Test func diagnosticsSortByPlaceThenCodeThenMessage() {
    let late = Diagnostic(.duplicateOrder, "b", at: TextRange(start: 9, end: 10))
    let sameB = Diagnostic(.unknownAttribute, "b", at: TextRange(start: 2, end: 3))
    let sameA = Diagnostic(.unknownAttribute, "a", at: TextRange(start: 2, end: 3))
    let lowerCode = Diagnostic(.unknownEntity, "z", at: TextRange(start: 2, end: 3))
    #expect(Diagnostic.sortedByPosition([late, sameB, sameA, lowerCode]) == [lowerCode, sameA, sameB, late])
    #expect(sameA.severity == DiagnosticCode.unknownAttribute.defaultSeverity)
  }

  @Test func severitiesReadTheirNamesAndOrderByWeight() {
    for severity in Severity.allCases { #expect(Severity(name: severity.description) == severity) }
    #expect(Severity(name: "fatal") == nil)
    #expect(Severity.allCases.sorted() == Severity.allCases)
  }

  @Test func theSizeRuleDescribesItsLimit() {
    #expect(!SizeRule.exceeds(SizeRule.maximumValueBytes) && SizeRule.exceeds(SizeRule.maximumValueBytes + 1))
    #expect(SizeRule.describe(16 << 20) == "16 MiB" && SizeRule.describe(1000) == "1000 bytes")
    #expect(
      SizeRule.message("The value of 'title'", byteCount: 17 << 20)
        == "The value of 'title' is 17825792 bytes, over the limit of 16 MiB (16777216 bytes)")
  }
}
