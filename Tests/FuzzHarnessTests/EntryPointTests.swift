import Foundation
import Testing

@testable import FuzzHarness

/// Each fuzz entry point on an input that takes it down its longest path (the fix, the
/// formatter and the JSON writer; a model that validates an outline; a JSON form converted
/// and validated; a whole server session): a broken invariant traps, so each is a test.
@Suite struct EntryPointTests {
  /// Every target has its libFuzzer entry folder and its seeds.
  @Test func everyTargetHasItsEntryPointAndSeeds() {
    #expect(FuzzHarness.targets.map(\.name) == ["FuzzOutline", "FuzzModel", "FuzzJSON", "FuzzLSP"])
    for (name, _) in FuzzHarness.targets {
      let folder = FuzzHarnessTests.root.appendingPathComponent("Fuzz/\(name)").path
      #expect(FileManager.default.fileExists(atPath: folder), "\(name) has no entry point folder")
      #expect(!FuzzHarnessTests.files(under: "Fuzz/Seeds/\(name)").isEmpty, "\(name) has no seeds")
    }
  }

  /// Order problems the fix-all repairs, in a document without errors otherwise, in every
  /// length of piece the target feeds (the length decides the piece size).
  @Test func anOutlineGoesThroughTheFixTheFormatterAndTheJSONWriter() {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <outline version="1" title="t">
        <Item title="a" order="3"/>
        <Item title="b" order="3"/>
        <Item title="c" order="1">
          <Item title="d"/>
        </Item>
      </outline>

      """
    for _ in 0..<4 {
      FuzzHarness.outline(Array(text.utf8))
      text += " "
    }
  }

  /// A model that loads validates an outline of its first entity.
  @Test func aModelThatLoadsValidatesAnOutline() {
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model>
        <entity name="Task">
          <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
          <attribute name="title" optional="YES" attributeType="String"/>
          <relationship name="children" optional="YES" toMany="YES" destinationEntity="Task" inverseName="parent"/>
          <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Task" inverseName="children"/>
        </entity>
      </model>
      """
    FuzzHarness.model(Array(model.utf8))
  }

  /// The repository's JSON form examples convert to XML that validates.
  @Test func aJSONFormDocumentConvertsToXMLThatValidates() throws {
    let examples = FuzzHarnessTests.files(under: "examples") { $0.hasSuffix(".json") }
    #expect(!examples.isEmpty)
    for url in examples {
      FuzzHarness.json(try [UInt8](Data(contentsOf: url)))
    }
  }

  /// A whole session: initialize, open, requests, shutdown and exit, served to the end.
  @Test func aServerSessionIsServedToTheEnd() {
    let document = "<outline version=\\\"1\\\"><Item title=\\\"a\\\" order=\\\"0\\\"/></outline>"
    let messages = [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
      #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
      #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///f/a.outline","languageId":"outline","version":1,"text":""#
        + document + #""}}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///f/a.outline"}}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"textDocument/formatting","params":{"textDocument":{"uri":"file:///f/a.outline"},"options":{"tabSize":2,"insertSpaces":true}}}"#,
      #"{"jsonrpc":"2.0","id":4,"method":"shutdown"}"#,
      #"{"jsonrpc":"2.0","method":"exit"}"#,
    ]
    var bytes: [UInt8] = []
    for message in messages {
      let body = Array(message.utf8)
      bytes += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
    FuzzHarness.lsp(bytes)
  }
}
