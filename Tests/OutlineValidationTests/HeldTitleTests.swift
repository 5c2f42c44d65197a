import OutlineCore
import OutlineModel
import OutlineXML
import Testing

@testable import OutlineValidation

/// An open element keeps the start of its title for messages, not the whole of it: a chain of
/// open items with long titles held them all (depth times title length, 100 MB for the chain
/// below at 1 MB a title), though a message quotes 60 characters.
@Suite struct HeldTitleTests {
  @Test func openItemsKeepOnlyTheStartOfLongTitles() {
    let title = String(repeating: "é&amp;", count: 10_000)  // 70,000 bytes as written
    let open = (0..<100).map { _ in "<Item order=\"0\" title=\"\(title)\">" }.joined()
    let validator = OutlineValidator(modelProvider: fixedModel(ModelLoader.defaultModel))
    XMLEventParser.parse(Array(("<outline version=\"1\">" + open).utf8), handler: validator)
    // The parse stops at the end with every item open (the document is cut short).
    #expect(validator.heldTitleBytes <= 100 * 1024, "\(validator.heldTitleBytes)")
    #expect(validator.heldTitleBytes > 100 * 900)
  }

  @Test func theStartKeptIsCutBeforeACharacterOrAReference() {
    func kept(_ text: String) -> String {
      let bytes = Array(text.utf8)
      let count = bytes.withUnsafeBufferPointer { OutlineValidator.titleStartKept($0) }
      return String(decoding: bytes[..<count], as: UTF8.self)
    }
    #expect(kept("short &amp; sweet") == "short &amp; sweet")
    // 1,023 bytes, then a two-byte character across the cut.
    let split = String(repeating: "a", count: 1_023) + "é" + String(repeating: "b", count: 100)
    #expect(kept(split) == String(repeating: "a", count: 1_023))
    // A reference across the cut: cut before its `&`.
    let reference = String(repeating: "a", count: 1_020) + "&#x1F600;" + String(repeating: "b", count: 100)
    #expect(kept(reference) == String(repeating: "a", count: 1_020))
    #expect(kept(String(repeating: "&amp;", count: 300)).hasSuffix("&amp;"))
  }

  /// Messages that name a parent by a long title still show its start, shortened.
  @Test func aMessageNamesAParentByItsTitlesStart() {
    let title = String(repeating: "x", count: 5_000)
    let text =
      "<outline version=\"1\"><Item order=\"0\" title=\"\(title)\"><Item order=\"1\"/></Item></outline>"
    let result = OutlineValidator.validate(
      SourceText(text), modelProvider: fixedModel(ModelLoader.defaultModel))
    let message = result.diagnostics.first { $0.code == .orderOutOfSequence }?.message ?? ""
    #expect(message.contains("'" + String(repeating: "x", count: 60) + "...'"), "\(message)")
  }
}
