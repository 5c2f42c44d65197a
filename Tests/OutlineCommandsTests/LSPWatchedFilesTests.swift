import Foundation
import OutlineJSON
import TestSupport
import Testing

/// Models and configurations changed on disk while outlines are open: with
/// watchers the client registered, or, without, by modification times
/// checked on each request.
@Suite(.serialized) struct LSPWatchedFilesTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model><entity name="Tag"><attribute name="name" attributeType="String"/></entity></model>
    """
  static let withColour = model.replacingOccurrences(
    of: "<attribute name=\"name\" attributeType=\"String\"/>",
    with:
      "<attribute name=\"name\" attributeType=\"String\"/><attribute name=\"colour\" optional=\"YES\" attributeType=\"String\"/>"
  )
  static let document = "<outline model=\"M.xcdatamodel\"><Tag name=\"a\" colour=\"red\"/></outline>\n"

  static func codes(_ params: JSONValue?) -> [JSONValue?]? {
    params?["diagnostics"]?.arrayValue?.map { $0["code"] }
  }

  static func hover(_ client: LSPClient, _ uri: String) -> JSONValue? {
    client.request(
      "textDocument/hover",
      ["textDocument": ["uri": .string(uri)], "position": ["line": 0, "character": 40]], timeout: 30)
  }

  /// No watchers (Neovim 0.7): the next request notices the model changed.
  @Test func modificationTimesAreCheckedOnEachRequest() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["M.xcdatamodel/contents": Self.model], in: folder)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    let client = try LSPClient()
    _ = client.initialize()
    client.open(uri, Self.document)
    #expect(Self.codes(client.diagnostics(uri)) == ["OL203"])
    try CLI.write(["M.xcdatamodel/contents": Self.withColour], in: folder)
    let pulled = client.request(
      "textDocument/diagnostic", ["textDocument": ["uri": .string(uri)]], timeout: 30)
    #expect(pulled?["result"]?["items"] == [])
    #expect(Self.codes(client.diagnostics(uri)) == [])
    // A configuration file appearing above the document counts too.
    try CLI.write([".outline.json": "{\"rules\": {\"OL203\": \"off\"}}"], in: folder)
    try CLI.write(["M.xcdatamodel/contents": Self.model], in: folder)
    _ = Self.hover(client, uri)
    #expect(Self.codes(client.diagnostics(uri)) == [])
    try FileManager.default.removeItem(at: folder.appendingPathComponent(".outline.json"))
    _ = Self.hover(client, uri)
    #expect(Self.codes(client.diagnostics(uri)) == ["OL203"])
    #expect(client.request("shutdown", timeout: 10)?["result"] == .null)
  }

  /// A bundle's current version switched by `.xccurrentversion`.
  @Test func aBundleFollowsItsCurrentVersion() throws {
    let folder = try CLI.temporaryFolder()
    func current(_ name: String) -> String {
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(name)</string></dict></plist>
      """
    }
    try CLI.write(
      [
        "M.xcdatamodeld/M.xcdatamodel/contents": Self.model,
        "M.xcdatamodeld/M 2.xcdatamodel/contents": Self.withColour,
        "M.xcdatamodeld/.xccurrentversion": current("M.xcdatamodel"),
      ], in: folder)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    let client = try LSPClient()
    _ = client.initialize()
    client.open(uri, Self.document.replacingOccurrences(of: "M.xcdatamodel", with: "M.xcdatamodeld"))
    #expect(Self.codes(client.diagnostics(uri)) == ["OL203"])
    try CLI.write(["M.xcdatamodeld/.xccurrentversion": current("M 2.xcdatamodel")], in: folder)
    _ = Self.hover(client, uri)
    #expect(Self.codes(client.diagnostics(uri)) == [])
  }

  /// Watchers registered: a change the client reports revalidates, and a
  /// pull client is asked to pull again; a change to another file does nothing.
  @Test func watchedChangesRepublishAndRefresh() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["M.xcdatamodel/contents": Self.model], in: folder)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    let client = try LSPClient()
    _ = client.request(
      "initialize",
      [
        "processId": .null,
        "capabilities": [
          "workspace": [
            "didChangeWatchedFiles": ["dynamicRegistration": true], "diagnostics": ["refreshSupport": true],
          ]
        ],
      ], timeout: 30)
    client.notify("initialized", [:])
    #expect(client.wait(timeout: 10) { $0["method"] == "client/registerCapability" } != nil)
    client.open(uri, Self.document)
    #expect(Self.codes(client.diagnostics(uri)) == ["OL203"])
    try CLI.write(["M.xcdatamodel/contents": Self.withColour], in: folder)
    let contents = folder.appendingPathComponent("M.xcdatamodel/contents").absoluteString
    client.notify(
      "workspace/didChangeWatchedFiles",
      ["changes": [["uri": .string(folder.appendingPathComponent("notes.txt").absoluteString), "type": 2]]])
    #expect(client.wait(timeout: 2) { $0["method"] == "textDocument/publishDiagnostics" } == nil)
    client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(contents), "type": 2]]])
    #expect(Self.codes(client.diagnostics(uri)) == [])
    #expect(client.wait(timeout: 10) { $0["method"] == "workspace/diagnostic/refresh" } != nil)
    // A closed outline changed: only the workspace's report did, so a refresh and no republishing.
    let closed = folder.appendingPathComponent("other.outline").absoluteString
    client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(closed), "type": 1]]])
    #expect(client.wait(timeout: 10) { $0["method"] == "workspace/diagnostic/refresh" } != nil)
    #expect(client.wait(timeout: 1) { $0["method"] == "textDocument/publishDiagnostics" } == nil)
  }
}
