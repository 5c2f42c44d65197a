import OutlineConvert
import OutlineCore
import OutlineWorkspace
import Testing

@testable import OutlineLSP

/// How `outline.convert` says why nothing was converted: a document in the JSON form whose
/// meaning is wrong has errors, as an outline does; only what the reader refused is not the
/// JSON form.
@Suite struct ConvertFailureTests {
  @Test func errorsOfMeaningAreTheDocumentsErrors() {
    var meaning = JSONFormError(
      message: "Order 0 is used twice", path: "$.children[1].order", offset: 10, code: .duplicateOrder)
    meaning.fromValidator = true
    let bytes = ByteBuffer(copying: Array("{}".utf8))
    #expect(
      CommandsFeature.describe(.notJSONForm(meaning, bytes: bytes))
        == "The document has 1 error: OL401 Order 0 is used twice")
    let syntax = JSONFormError(message: "Invalid JSON", path: "$", offset: 0)
    #expect(CommandsFeature.describe(.notJSONForm(syntax, bytes: bytes)).hasPrefix("Not the JSON form: "))
  }
}
