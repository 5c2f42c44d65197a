import Foundation
import Testing

/// Files that are not outlines, opened in the editor beside them (a model to rename in, the
/// configuration, any XML file a client sends along), get no outline diagnostics; an outline
/// next to them still does.
@Suite struct LSPDocumentKindsTests {
  @Test func filesThatAreNotOutlinesGetNoOutlineDiagnostics() throws {
    let folder = try CLI.temporaryFolder()
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel">
          <entity name="Tag"><attribute name="colour" optional="YES" attributeType="String"/></entity>
      </model>

      """
    let configuration = "{\"rules\": {\"OL401\": \"off\"}}\n"
    try CLI.write(["M.xcdatamodel/contents": model, ".outline.json": configuration], in: folder)
    let client = try LSPClient()
    defer { _ = client.close() }
    _ = client.request(
      "initialize", ["processId": .null, "rootUri": .string(folder.absoluteString), "capabilities": [:]],
      timeout: 30)
    client.notify("initialized", [:])
    let opened = [
      ("M.xcdatamodel/contents", model), (".outline.json", configuration),
      ("pom.xml", "<project><modelVersion>4.0.0</modelVersion></project>\n"),
    ]
    for (name, text) in opened {
      let uri = folder.appendingPathComponent(name).absoluteString
      client.open(uri, text)
      #expect(client.diagnostics(uri)?["diagnostics"] == [], "\(name)")
    }
    let outline = folder.appendingPathComponent("t.outline").absoluteString
    client.open(outline, "<outline model=\"M.xcdatamodel\">\n  <Tag shade=\"red\"/>\n</outline>\n")
    let codes = client.diagnostics(outline)?["diagnostics"]?.arrayValue?.compactMap {
      $0["code"]?.stringValue
    }
    #expect(codes == ["OL203"], "\(String(describing: codes))")
  }
}
