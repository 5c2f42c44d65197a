import Foundation
import OutlineJSON
import TestSupport
import Testing

/// the server writes pulled diagnostics (`textDocument/diagnostic`,
/// `workspace/diagnostic`) as JSON text, as it writes its published ones:
/// through the binary, the pulled items are the published ones, and a pull
/// with the last `resultId` answers `unchanged`.
@Suite struct LSPPulledDiagnosticsTests {
  /// Duplicate orders (a related location each), items without an order,
  /// siblings out of order (OL403, tagged), astral characters, escapes,
  /// unknown attributes, and a long line.
  static let text: String = {
    let items = (0..<300).map { index -> String in
      let order = index % 10 < 7 ? " order=\"\(index % 3 == 0 ? 300 - index : index % 5)\"" : ""
      return "<Item title=\"😀 \\ &quot;\(index)&quot;\"\(order) x\(index % 4)=\"v\"/>"
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n"
      + items.prefix(150).joined(separator: "\n") + "\n" + items.suffix(150).joined()
      + "\n<Item title=\"p\"><Item title=\"b\" order=\"1\"/><Item title=\"a\" order=\"0\"/></Item>\n</outline>\n"
  }()

  @Test(arguments: [[], ["utf-8", "utf-16"]])
  func pulledItemsAreThePublishedOnes(encodings: [String]) async throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try CLI.write(["open.outline": Self.text, "closed.outline": Self.text], in: folder)
    let uri = folder.appendingPathComponent("open.outline").absoluteString
    let client = ServerClient()
    _ = await client.request(
      "initialize",
      [
        "processId": .null, "rootUri": .string(folder.absoluteString),
        "capabilities": ["general": ["positionEncodings": .array(encodings.map { .string($0) })]],
      ])
    client.notify("initialized", [:])
    client.open(uri, Self.text)
    let published = await client.diagnostics(uri, version: 1)?["diagnostics"]
    let diagnostics = published?.arrayValue ?? []
    #expect(diagnostics.count > 450)
    #expect(diagnostics.contains { $0["relatedInformation"] != nil })
    #expect(diagnostics.contains { $0["tags"] == [] })
    let codes = Set(diagnostics.compactMap { $0["code"]?.stringValue })
    #expect(codes.isSuperset(of: ["OL203", "OL400", "OL401", "OL403"]), "\(codes.sorted())")

    // textDocument/diagnostic: full, then unchanged for its resultId.
    let document: JSONValue = ["uri": .string(uri)]
    let pulled = await client.request("textDocument/diagnostic", ["textDocument": document])?["result"]
    #expect(pulled?["kind"] == "full")
    #expect(pulled?["items"] == published)
    let resultId = try #require(pulled?["resultId"]?.stringValue)
    let again = await client.request(
      "textDocument/diagnostic", ["textDocument": document, "previousResultId": .string(resultId)])?["result"]
    #expect(again == ["kind": "unchanged", "resultId": .string(resultId)])

    // workspace/diagnostic: the open document as the editor has it (its
    // version), the closed one from disk (`version` null); then both unchanged.
    let workspace = await client.request("workspace/diagnostic", ["previousResultIds": []])?["result"]
    let reports = workspace?["items"]?.arrayValue ?? []
    #expect(reports.count == 2)
    let open = try #require(reports.first { $0["uri"]?.stringValue == uri })
    #expect(open["kind"] == "full" && open["version"] == 1 && open["resultId"]?.stringValue == resultId)
    #expect(open["items"] == published)
    let closed = try #require(reports.first { $0["uri"]?.stringValue != uri })
    #expect(closed["kind"] == "full" && closed["version"] == .null)
    #expect(closed["items"]?.arrayValue?.count == diagnostics.count)
    let previous = reports.map { report -> JSONValue in
      ["uri": report["uri"] ?? .null, "value": report["resultId"] ?? .null]
    }
    let unchanged = await client.request("workspace/diagnostic", ["previousResultIds": .array(previous)])?[
      "result"]
    let second = unchanged?["items"]?.arrayValue ?? []
    #expect(second.count == 2)
    for report in second {
      #expect(report["kind"] == "unchanged" && report["items"] == nil)
      #expect(previous.contains { $0["uri"] == report["uri"] && $0["value"] == report["resultId"] })
    }

    #expect(await client.request("shutdown")?["result"] == .null)
    client.notify("exit", .null)
    #expect(await client.close() == 0)
  }
}
