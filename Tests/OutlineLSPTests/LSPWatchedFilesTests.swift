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

  static func hover(_ client: ServerClient, _ uri: String) async -> JSONValue? {
    await client.request(
      "textDocument/hover",
      ["textDocument": ["uri": .string(uri)], "position": ["line": 0, "character": 40]])
  }

  /// No watchers (Neovim 0.7): the next request notices the model changed.
  @Test func modificationTimesAreCheckedOnEachRequest() async throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["M.xcdatamodel/contents": Self.model], in: folder)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    let client = ServerClient()
    _ = await client.initialize()
    client.open(uri, Self.document)
    #expect(Self.codes(await client.diagnostics(uri)) == ["OL203"])
    try CLI.write(["M.xcdatamodel/contents": Self.withColour], in: folder)
    let pulled = await client.request(
      "textDocument/diagnostic", ["textDocument": ["uri": .string(uri)]])
    #expect(pulled?["result"]?["items"] == [])
    #expect(Self.codes(await client.diagnostics(uri)) == [])
    // A configuration file appearing above the document counts too.
    try CLI.write([".outline.json": "{\"rules\": {\"OL203\": \"off\"}}"], in: folder)
    try CLI.write(["M.xcdatamodel/contents": Self.model], in: folder)
    _ = await Self.hover(client, uri)
    #expect(Self.codes(await client.diagnostics(uri)) == [])
    try FileManager.default.removeItem(at: folder.appendingPathComponent(".outline.json"))
    _ = await Self.hover(client, uri)
    #expect(Self.codes(await client.diagnostics(uri)) == ["OL203"])
    #expect(await client.request("shutdown")?["result"] == .null)
  }

  /// A bundle's current version switched by `.xccurrentversion`.
  @Test func aBundleFollowsItsCurrentVersion() async throws {
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
    let client = ServerClient()
    _ = await client.initialize()
    client.open(uri, Self.document.replacingOccurrences(of: "M.xcdatamodel", with: "M.xcdatamodeld"))
    #expect(Self.codes(await client.diagnostics(uri)) == ["OL203"])
    try CLI.write(["M.xcdatamodeld/.xccurrentversion": current("M 2.xcdatamodel")], in: folder)
    _ = await Self.hover(client, uri)
    #expect(Self.codes(await client.diagnostics(uri)) == [])
  }

  /// Watchers registered: a change the client reports revalidates, and a
  /// pull client is asked to pull again; a change to another file does nothing.
  @Test func watchedChangesRepublishAndRefresh() async throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["M.xcdatamodel/contents": Self.model], in: folder)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    let client = ServerClient()
    _ = await client.request(
      "initialize",
      [
        "processId": .null,
        "capabilities": [
          "workspace": [
            "didChangeWatchedFiles": ["dynamicRegistration": true], "diagnostics": ["refreshSupport": true],
          ]
        ],
      ])
    client.notify("initialized", [:])
    #expect(await client.wait { $0["method"] == "client/registerCapability" } != nil)
    client.open(uri, Self.document)
    #expect(Self.codes(await client.diagnostics(uri)) == ["OL203"])
    try CLI.write(["M.xcdatamodel/contents": Self.withColour], in: folder)
    let contents = folder.appendingPathComponent("M.xcdatamodel/contents").absoluteString
    client.notify(
      "workspace/didChangeWatchedFiles",
      ["changes": [["uri": .string(folder.appendingPathComponent("notes.txt").absoluteString), "type": 2]]])
    await client.expectNothing(for: 2) { $0["method"] == "textDocument/publishDiagnostics" }
    client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(contents), "type": 2]]])
    #expect(Self.codes(await client.diagnostics(uri)) == [])
    #expect(await client.wait { $0["method"] == "workspace/diagnostic/refresh" } != nil)
    // A closed outline changed: only the workspace's report did, so a refresh and no republishing.
    let closed = folder.appendingPathComponent("other.outline").absoluteString
    client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": .string(closed), "type": 1]]])
    #expect(await client.wait { $0["method"] == "workspace/diagnostic/refresh" } != nil)
    await client.expectNothing(for: 1) { $0["method"] == "textDocument/publishDiagnostics" }
  }
}
