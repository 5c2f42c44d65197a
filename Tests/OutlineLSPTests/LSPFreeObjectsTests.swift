import Foundation
import TestSupport
import Testing

/// Objects that stand free under the root (tags, say) are not its children: hover counts an
/// object's siblings in its own relationship and the root's children apart from its free
/// objects, and the root's fold says how many children it has.
@Suite struct LSPFreeObjectsTests {
  @Test func freeObjectsAreNotCountedAsChildrenOrSiblings() async throws {
    let folder = try CLI.temporaryFolder()
    let examples = CLI.repository.appendingPathComponent("examples/tags")
    try FileManager.default.copyItem(
      at: examples.appendingPathComponent("Tasks.xcdatamodeld"),
      to: folder.appendingPathComponent("Tasks.xcdatamodeld"))
    let text = try String(contentsOf: examples.appendingPathComponent("sprint.outline"), encoding: .utf8)
    let uri = folder.appendingPathComponent("sprint.outline").absoluteString
    let lines = text.components(separatedBy: "\n")
    let login = try #require(lines.firstIndex { $0.contains("title=\"Ship login\"") })
    let root = try #require(lines.firstIndex { $0.hasPrefix("<outline") })
    let client = await ServerClient.initialized(root: folder)
    defer { client.endInput() }
    client.open(uri, text)
    #expect(await client.diagnostics(uri)?["diagnostics"] == [])
    func hover(line: Int, character: Int) async -> String {
      await client.request(
        "textDocument/hover",
        [
          "textDocument": ["uri": .string(uri)],
          "position": ["line": .int(line), "character": .int(character)],
        ]
      )?["result"]?["contents"]?["value"]?.stringValue ?? ""
    }
    let task = await hover(line: login, character: 4)
    #expect(task.contains("order: 0 of 2 siblings"), "\(task)")
    #expect(task.contains("children: 2"), "\(task)")
    let top = await hover(line: root, character: 3)
    #expect(top.contains("children: 2") && top.contains("free objects: 2"), "\(top)")
    let folds = await client.request("textDocument/foldingRange", ["textDocument": ["uri": .string(uri)]])
    let rootFold = folds?["result"]?.arrayValue?.first { $0["startLine"]?.intValue == root }
    #expect(
      rootFold?["collapsedText"]?.stringValue?.hasSuffix("(2 children)") == true,
      "\(String(describing: rootFold))")
  }
}
