import Foundation
import TestSupport
import Testing

@testable import OutlineLSP

/// Keystrokes in attribute values of objects whose entity has a uniqueness
/// constraint (on owner and priority): values of other attributes are
/// carried over, members are analyzed afresh (their keys count across the
/// file); after every change the analysis equals a fresh one.
@Suite struct AttributeEditUniquenessTests {
  @Test func keystrokesOutsideAConstraintsMembersAreCarriedOver() throws {
    let model = MarkupEditTests.model(unique: false, bounded: false).replacingOccurrences(
      of: "</entity>",
      with:
        "  <uniquenessConstraints><uniquenessConstraint><constraint value=\"owner\"/><constraint value=\"priority\"/></uniquenessConstraint></uniquenessConstraints>\n  </entity>"
    )
    var random = SeededGenerator(seed: 43)
    let text = AttributeEditTests.document(items: 200, problems: true, references: false, using: &random)
    let carried = try AttributeEditTests.compareEveryEdit(
      model: model, text: text, steps: 400, using: &random
    ) {
      first in #expect(first.diagnostics.count > 10)
    }
    #expect(carried > 60, "\(carried) carried over")
  }
}
