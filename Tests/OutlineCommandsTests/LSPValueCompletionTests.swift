import Foundation
import OutlineJSON
import TestSupport
import Testing

/// Completing a value the model enumerates (`R&D|Sales`) inserts it as an attribute value must
/// be written: `R&amp;D`, not a raw `&` that would leave the document not well-formed.
@Suite struct LSPValueCompletionTests {
  @Test func anEnumeratedValueIsInsertedEscaped() throws {
    let folder = try CLI.temporaryFolder()
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Item">
              <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
              <attribute name="dept" optional="YES" attributeType="String" regularExpressionString="R&amp;D|Sales"/>
          </entity>
      </model>

      """
    let text =
      "<outline version=\"1\" model=\"M.xcdatamodel\">\n  <Item order=\"0\" dept=\"\"/>\n</outline>\n"
    try CLI.write(["M.xcdatamodel/contents": model, "a.outline": text], in: folder)
    let uri = folder.appendingPathComponent("a.outline").absoluteString
    let client = try LSPClient()
    defer { _ = client.close() }
    _ = client.initialize()
    client.open(uri, text)
    _ = client.diagnostics(uri)
    let completion = client.request(
      "textDocument/completion",
      ["textDocument": ["uri": .string(uri)], "position": ["line": 1, "character": 24]])?["result"]
    let items = completion?["items"]?.arrayValue ?? []
    let rd = try #require(items.first { $0["label"]?.stringValue == "R&D" }, "\(items)")
    #expect(rd["insertText"]?.stringValue == "R&amp;D")
    #expect(rd["filterText"]?.stringValue == "R&amp;D")
    let sales = try #require(items.first { $0["label"]?.stringValue == "Sales" })
    #expect(sales["insertText"]?.stringValue == "Sales" && sales["filterText"] == nil)
    // Inserted, the document is well-formed and the value matches the model's pattern.
    let inserted = text.replacingOccurrences(of: "dept=\"\"", with: "dept=\"R&amp;D\"")
    try CLI.write(["a.outline": inserted], in: folder)
    let lint = try CLI.run("outline-lint", ["a.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout)")
  }
}
