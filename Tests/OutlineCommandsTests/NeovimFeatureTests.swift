import Foundation
import TestSupport
import Testing

/// The editing features in a real editor: headless Neovim runs
/// `Documentation/editors/neovim-features.lua` against the built server,
/// through its own LSP client, and applies the edits itself.
@Suite struct NeovimFeatureTests {
  static var hasNeovim: Bool { CompletionAndManualTests.installed("nvim") }

  @Test(.enabled(if: hasNeovim, "nvim is not installed: the Neovim feature test did not run"))
  func everyEditingFeatureWorksInNeovim() throws {
    let folder = try CLI.temporaryFolder()
    let editors = CLI.repository.appendingPathComponent("Documentation/editors")
    let file = folder.appendingPathComponent("features.outline")
    try FileManager.default.copyItem(at: editors.appendingPathComponent("features.outline"), to: file)
    let result = folder.appendingPathComponent("result.txt")
    var environment = ProcessInfo.processInfo.environment
    environment["OUTLINE_BIN"] = CLI.products.appendingPathComponent("outline").path
    environment["OUTLINE_NVIM_INIT"] = editors.appendingPathComponent("neovim.lua").path
    environment["OUTLINE_NVIM_FILE"] = file.path
    environment["OUTLINE_NVIM_RESULT"] = result.path
    let run = try CLI.program(
      "timeout",
      ["120", "nvim", "--headless", "-u", "NONE", "-c", "luafile \(editors.path)/neovim-features.lua"],
      environment: environment, in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    let lines = try String(contentsOf: result, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "capabilities: selectionRangeProvider linkedEditingRangeProvider documentHighlightProvider"
          + " inlayHintProvider codeLensProvider semanticTokensProvider documentRangeFormattingProvider"
          + " documentOnTypeFormattingProvider",
        "selection: Groceries | \"Groceries\" | title=\"Groceries\" | ... 7 ranges",
        "linked: 2:3 Item, 5:4 Item",
        "highlights: 2:3/1 5:4/1",
        "hints: 2:1 3:1.1 4:1.2 6:2",
        "lenses: 1:4 descendants, 2:2 descendants, 2:Delete removes 3 objects",
        "tokens: 26 first macro",
        "formatted:     <Item order=\"1\" title=\"Eggs\"/>",
        "completion: </Item>",
        "completed:     </Item>",
        "on type:     <Item order=\"2\" title=\"Tea\"/>",
      ])
  }
}
