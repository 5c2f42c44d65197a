import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineLSP

/// Keystrokes in attribute values (``AttributeEdit``, ``TitleEdit``) and
/// markup edits (``MarkupEdit``) in a document with `outline-disable`
/// comments, before the root, inside it and covering the next start tag:
/// after every change the analysis the store gives equals a fresh one, and
/// most value keystrokes are carried over. Built as ``AttributeEditTests``.
@Suite struct AttributeEditSuppressionTests {
  @Test func carriedAnalysisHonoursSuppressionCommentsAfterEveryEdit() throws {
    var random = SeededGenerator(seed: 41)
    let text = AttributeEditTests.document(items: 200, problems: true, references: false, using: &random)
      .replacingOccurrences(of: "<outline ", with: "<!-- outline-disable OL401 -->\n<outline ")
      .replacingOccurrences(of: "owner=\"me\">\n", with: "owner=\"me\">\n<!-- outline-disable OL203 -->\n")
      .replacingOccurrences(
        of: "<Task title=\"Eggs\"",
        with: "<!-- outline-disable-next OL300 OL302 OL400 -->\n<Task title=\"Eggs\"")
    let carried = try AttributeEditTests.compareEveryEdit(
      model: AttributeEditTests.model, text: text, steps: 400, using: &random
    ) { first in #expect(first.diagnostics.count > 10) }
    #expect(carried > 150, "\(carried) carried over")
  }
}
