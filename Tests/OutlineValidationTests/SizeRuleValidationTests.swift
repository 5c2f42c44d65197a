import OutlineCore
import TestSupport
import Testing

@testable import OutlineValidation

/// OL107: the size rule on values, text, comments and instructions, as written.
@Suite struct SizeRuleValidationTests {
  static let limit = OversizedValue.limit

  /// `bytes` bytes as written, ending with an escape: `a`s then `&amp;`.
  static func written(_ bytes: Int) -> String { OversizedValue.xml(bytes) }

  func oversized(_ text: String) -> [Diagnostic] {
    validate(text).filter { $0.code == .valueTooLarge }
  }

  @Test func anAttributeValueAtTheLimitIsAccepted() {
    let text = document("<Item title=\"\(Self.written(Self.limit))\" order=\"0\"/>")
    #expect(validate(text).isEmpty)
  }

  @Test func oneByteMoreIsReportedAtTheValueAndTheRestIsChecked() throws {
    let prefix = document("<Item title=\"")
    let text = document("<Item title=\"\(Self.written(Self.limit + 1))\" order=\"0\"/><Item order=\"7\"/>")
    let found = oversized(text)
    try #require(found.count == 1)
    let start = prefix.utf8.count - "\n</outline>\n".utf8.count
    #expect(found[0].range == TextRange(start: start, end: start + Self.limit + 1))
    #expect(found[0].severity == .error)
    #expect(
      found[0].message
        == "The value of 'title' is 16777217 bytes, over the limit of 16 MiB (16777216 bytes)")
    #expect(validate(text).contains { $0.code == .orderOutOfSequence })
  }

  @Test func textCommentsAndInstructionsFollowTheSameRule() {
    let filler = String(repeating: "a", count: Self.limit)
    let atLimit = document("<!--\(filler.dropFirst(7))--><?pi \(filler.dropFirst(7))?>")
    #expect(validate(atLimit).isEmpty)
    let over = document(
      "<!--\(filler.dropFirst(6))--><?pi \(filler.dropFirst(6))?><Item order=\"0\">\(filler)b</Item>")
    let messages = oversized(over).map(\.message)
    #expect(messages.count == 3)
    #expect(messages.contains { $0.hasPrefix("This comment is 16777217 bytes") })
    #expect(messages.contains { $0.hasPrefix("This processing instruction is 16777217 bytes") })
    #expect(messages.contains { $0.hasPrefix("This text is 16777217 bytes") })
  }

  @Test func aSuppressionCommentIsStillRead() {
    let text = document("<!-- outline-disable OL401 --><Item order=\"0\"/><Item order=\"0\"/>")
    #expect(!validate(text).contains { $0.code == .duplicateOrder })
  }
}
