import OutlineCore
import OutlineModel
import Testing

@testable import OutlineValidation

@Suite struct OrderTests {
  @Test func brokenValuesStillLeaveDuplicatesAndGapsReported() {
    let marked = Marked(
      document(
        """
        <Item order="x"/>
        <Item/>
        <Item order="1️⃣0"/>
        <Item order="2️⃣0"/>
        <Item order="3️⃣9"/>
        """))
    let diagnostics = validate(marked.text)
    #expect(diagnostics.map(\.code.rawValue).sorted() == ["OL300", "OL400", "OL401", "OL402"])
    let duplicate = diagnostics.first { $0.code == .duplicateOrder }!
    #expect(duplicate.range.start == marked.offsets[1])
    #expect(duplicate.related.first?.range.start == marked.offsets[0])
    #expect(duplicate.message.contains("Order 0"))
    let gap = diagnostics.first { $0.code == .orderOutOfSequence }!
    #expect(gap.range.start == marked.offsets[2])
    #expect(gap.message.contains("0...4"))
  }

  @Test func missingOrderIsReportedEvenWithAModelDefault() {
    // Item.order has defaultValueString="0" in the model, yet OL400.
    let diagnostics = validate(document("<Item/>"))
    #expect(diagnostics.map(\.code) == [.orderMissing])
  }

  @Test func orderedRelationshipNeedsNoOrderAttribute() {
    let diagnostics = validate(
      document("<Item order=\"0\"><Note text=\"b\"/><Note text=\"a\"/></Item>"))
    #expect(diagnostics.isEmpty)
  }

  @Test func eachParentIsItsOwnGroup() {
    let diagnostics = validate(
      document(
        """
        <Item order="0"><Item order="0"/><Item order="1"/></Item>
        <Item order="1"><Item order="0"/></Item>
        """))
    #expect(diagnostics.isEmpty)
  }

  @Test func freeObjectsUnderTheRootAreNotNumbered() {
    let diagnostics = validate(document("<Tag name=\"a\"/><Item order=\"0\"/><Tag name=\"b\"/>"))
    #expect(diagnostics.isEmpty)
  }

  @Test func rootMayNotCarryAnOrder() {
    let diagnostics = validate("<outline order=\"0\"/>")
    #expect(diagnostics.map(\.code) == [.unknownAttribute])
  }

  @Test func documentOrderHintIsOnePerGroup() {
    let diagnostics = validate(document("<Item order=\"2\"/><Item order=\"1\"/><Item order=\"0\"/>"))
    #expect(diagnostics.map(\.code) == [.orderNotDocumentOrder])
    #expect(diagnostics[0].severity == .hint)
  }
}

@Suite struct PositionTests {
  @Test func nonASCIIAndCRLFBeforeAnErrorKeepColumnsExact() {
    let text =
      "<outline>\r\n  <Item title=\"é 中文 😀\" order=\"0\"/>\r\n  <Item title=\"😀\" order=\"7\"/>\r\n</outline>\r\n"
    let source = SourceText(text)
    let diagnostics = validate(text)
    #expect(diagnostics.map(\.code) == [.orderOutOfSequence])
    let start = diagnostics[0].range.start
    #expect(source.position(of: start, unit: .scalar) == SourcePosition(line: 2, column: 25))
    #expect(source.position(of: start, unit: .utf16) == SourcePosition(line: 2, column: 26))
    #expect(source.position(of: start, unit: .utf8) == SourcePosition(line: 2, column: 28))
    #expect(source.offset(of: SourcePosition(line: 2, column: 26), unit: .utf16) == start)
  }

  @Test func attributesSpreadOverLines() {
    let marked = Marked(
      document(
        """
          <Item
              title="a"
              order="0"
              count=
                "1️⃣12"/>
        """))
    let diagnostics = validate(marked.text)
    #expect(diagnostics.map(\.code) == [.valueOutOfBounds])
    #expect(diagnostics[0].range.start == marked.offsets[0])
  }

  @Test func escapedValuesAreDecodedBeforeChecks() {
    // `&#65;BC` is "ABC", which matches [A-Z]{3}.
    #expect(validate(document("<Item order=\"0\" code=\"&#65;BC\" title=\"a &amp; b\"/>")).isEmpty)
  }
}

@Suite struct SuppressionTests {
  @Test func disableTurnsCodesOffForTheFile() {
    let text = document("<!-- outline-disable OL403 -->\n<Item order=\"1\"/><Item order=\"0\"/>")
    #expect(validate(text).isEmpty)
  }

  @Test func disableNextCoversOnlyTheNextObject() {
    let text = document(
      """
      <!-- outline-disable-next OL203 -->
      <Item order="0" colour="red"/>
      <Item order="1" colour="blue"/>
      """)
    let diagnostics = validate(text)
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.message.contains("colour") == true)
  }

  /// What a comment turns off is kept aside (errors only), for conversions that cannot write it.
  @Test func silencedErrorsAreKeptAside() {
    let text = document(
      """
      <!-- outline-disable-next OL203 -->
      <Item order="0" colour="red"/>
      <Item order="1" colour="blue"/>
      """)
    let validator = OutlineValidator.validate(SourceText(text))
    #expect(validator.diagnostics.map(\.code) == [.unknownAttribute])
    #expect(validator.silencedErrors.map(\.code) == [.unknownAttribute])
    #expect(validator.silencedErrors.first?.message.contains("colour") == true)
    #expect(validator.suppression.silences(validator.silencedErrors[0]))
    #expect(!validator.suppression.silences(validator.diagnostics[0]))
    // A hint turned off is not an error kept aside; nothing turned off, nothing kept.
    #expect(
      OutlineValidator.validate(
        SourceText(document("<!-- outline-disable OL403 -->\n<Item order=\"1\"/><Item order=\"0\"/>"))
      )
      .silencedErrors.isEmpty)
    #expect(
      OutlineValidator.validate(SourceText(document("<Item order=\"0\" colour=\"x\"/>"))).silencedErrors
        .isEmpty)
  }
}

@Suite struct TreeTests {
  @Test func treeIsFlatPreOrderWithSubtreeEnds() {
    let text = document(
      """
      <Item title="a" order="0"><Item title="b" order="0"/><Item title="c" order="1"><Item order="0"/></Item></Item>
      <!-- note -->
      <Item title="d" order="1"/>
      """)
    let result = OutlineValidator.validate(SourceText(text), modelProvider: fixedModel(Fixtures.testModel))
    let tree = result.tree!
    #expect(tree.items.count == 6)
    #expect(tree.children(of: 0) == [1, 5])
    #expect(tree.children(of: 1) == [2, 3])
    #expect(tree.items[4].depth == 3)
    #expect(tree.comments.count == 1)
    let source = SourceText(text)
    #expect(source.string(in: tree.items[3].titleRange!) == "c")
    #expect(tree.item(at: tree.items[4].startTag.start + 2) == 4)
  }

  @Test func malformedDocumentKeepsTheTreeThatParsed() {
    let text =
      "<outline>\n<Item order=\"0\">\n<Item order=\"0\"/>\n<Item order=\"1\" title=\"oops>\n</outline>"
    let result = OutlineValidator.validate(SourceText(text), modelProvider: fixedModel(Fixtures.testModel))
    #expect(result.diagnostics.contains { $0.code == .notWellFormed })
    #expect(result.tree!.items.count == 3)
    #expect(result.tree!.items[0].subtreeEnd == 3)
  }
}

/// The id table: every id found again, duplicates reported at the second
/// definition with the first as related, ids written with references equal
/// to the same ids written plainly, and growth past many resizes.
@Suite struct IDTableTests {
  @Test func manyIdsResolveAndDuplicatesAreReported() {
    var xml = "<outline>"
    let count = 20_000
    for index in 0..<count { xml += "<Tag name=\"t\" xml:id=\"id\(index)\"/>" }
    xml += "<Item order=\"0\" xml:id=\"id&#55;\" tags=\"id0 id19999 id7 missing\"/>"
    xml += "</outline>"
    let diagnostics = validate(xml)
    let duplicates = diagnostics.filter { $0.code == .duplicateID }
    #expect(duplicates.count == 1)
    #expect(duplicates.first?.message == "The id 'id7' is used twice")
    #expect(duplicates.first?.related.count == 1)
    let unknown = diagnostics.filter { $0.code == .unknownID }
    #expect(unknown.map(\.message) == ["'tags' names 'missing', which no object in the file has as its id"])
  }
}
