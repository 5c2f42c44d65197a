import Foundation
import OutlineJSON
import Testing

@testable import OutlineLSP

/// `workspace/didChangeWorkspaceFolders`: advertised by the method table,
/// and the folder list it keeps is what the workspace report searches.
@Suite struct WorkspaceFoldersTests {
  func folder(_ path: String) -> LSP.WorkspaceFolder {
    LSP.WorkspaceFolder(uri: URL(fileURLWithPath: path).absoluteString, name: path)
  }

  @Test func theTableAdvertisesFolderChanges() throws {
    let capabilities = MethodTable.capabilities(positionEncoding: nil)
    #expect(
      capabilities.workspace?.workspaceFolders
        == LSP.WorkspaceFoldersServerCapabilities(supported: true, changeNotifications: true))
    #expect(MethodTable.byMethod["workspace/didChangeWorkspaceFolders"] != nil)
  }

  @Test func removedFoldersGoAndAddedOnesComeOnce() {
    let event = LSP.WorkspaceFoldersChangeEvent(
      added: [folder("/c"), folder("/a"), folder("/c")], removed: [folder("/b"), folder("/z")])
    #expect(LanguageServer.folders(["/a", "/b"], after: event) == ["/a", "/c"])
    let none = LSP.WorkspaceFoldersChangeEvent(added: [], removed: [folder("/a")])
    #expect(LanguageServer.folders(["/a"], after: none).isEmpty)
    // Only file URIs name folders.
    let remote = LSP.WorkspaceFoldersChangeEvent(
      added: [LSP.WorkspaceFolder(uri: "https://example.com/x", name: "x")], removed: [])
    #expect(LanguageServer.folders(["/a"], after: remote) == ["/a"])
  }

  @Test func theWorkspaceReportFollowsTheFolders() throws {
    let first = try WorkspaceDiagnosticsTests.folder(2)
    let second = try WorkspaceDiagnosticsTests.folder(3)
    defer {
      try? FileManager.default.removeItem(at: first)
      try? FileManager.default.removeItem(at: second)
    }
    let store = DocumentStore()
    func report(_ folders: [String]) throws -> [String] {
      let feature = WorkspaceDiagnosticsFeature(
        mapper: PositionMapper(unit: .utf16), folders: folders, open: [], store: store,
        generation: store.generation, findOutlines: WorkspaceDiagnosticsTests.search)
      let context = RequestContext(cancellation: CancellationFlag(), notify: { _, _ in })
      return try feature.report(LSP.WorkspaceDiagnosticParams(previousResultIds: []), context: context).items
        .map(\.uri).sorted()
    }
    let before = try report([first.path])
    #expect(before.count == 2 && before.allSatisfy { $0.contains(first.lastPathComponent) })
    let folders = LanguageServer.folders(
      [first.path],
      after: LSP.WorkspaceFoldersChangeEvent(added: [folder(second.path)], removed: [folder(first.path)]))
    let after = try report(folders)
    #expect(after.count == 3 && after.allSatisfy { $0.contains(second.lastPathComponent) })
  }
}
