import Foundation
import OutlineCore
import OutlineSyntax
import Testing

@testable import OutlineValidation

/// OL600: the records `outline merge` leaves are errors naming both sides' values, at the
/// whole instruction.
@Suite struct MergeConflictRecordTests {
  @Test func recordIsAnErrorWithBothSidesValuesAtItsRange() {
    let record = ConflictRecord(
      .attribute, [("name", "title"), ("base", "Old"), ("ours", "Mine & \"yours\""), ("theirs", "x ?> y")])
    let text = document("\(record.markup)\n<Item title=\"a\" order=\"0\"/>")
    let diagnostics = validate(text)
    #expect(diagnostics.count == 1)
    let hit = diagnostics.first
    #expect(hit?.code == .mergeConflict)
    #expect(hit?.severity == .error)
    #expect(hit?.message.contains("'Mine & \"yours\"'") == true, "\(hit?.message ?? "")")
    #expect(hit?.message.contains("'x ?> y'") == true, "\(hit?.message ?? "")")
    #expect(hit?.message.contains("'Old'") == true, "\(hit?.message ?? "")")
    let start = text.utf8.distance(
      from: text.startIndex, to: text.range(of: "<?outline-conflict")!.lowerBound)
    #expect(hit?.range == TextRange(start: start, end: start + record.markup.utf8.count))
  }

  @Test func recordReadsBackWhatWasWritten() {
    for kind in ConflictRecord.Kind.allCases {
      let record = ConflictRecord(
        kind, [("name", "a\tb"), ("ours", "<&>\"'"), ("theirs", nil), ("side", "ours")])
      #expect(ConflictRecord.parse(record.markup) == record, "\(record.markup)")
      #expect(!record.markup.dropLast(2).contains("?>"))
    }
  }

  @Test func otherInstructionsAndUnreadableRecords() {
    #expect(validate(document("<?outline-conflicts kind=\"id\"?><Item order=\"0\"/>")).isEmpty)
    let broken = validate(document("<?outline-conflict kind=\"nonsense\"?><Item order=\"0\"/>"))
    #expect(broken.map(\.code) == [.mergeConflict])
  }
}
