import Foundation
import TestSupport
import Testing

/// Diagnostics as you type and a model changed on disk, in Emacs with eglot:
/// `Documentation/editors/emacs-watch.el` in a terminal Emacs under
/// `script`, as a user runs it (EglotLSPTests covers the watchers in batch mode).
@Suite struct EmacsEglotTests {
  /// Emacs, eglot (built in from Emacs 29, `elpa-eglot` before) and `script` for the terminal.
  static let hasEmacsAndEglot: Bool = {
    guard CompletionAndManualTests.installed("emacs"), CompletionAndManualTests.installed("script") else {
      return false
    }
    let run = try? CLI.program(
      "emacs", ["--batch", "--eval", "(progn (package-initialize) (require 'eglot))"])
    return run?.status == 0
  }()

  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model><entity name="Tag"><attribute name="name" attributeType="String"/></entity></model>
    """

  @Test(
    .enabled(
      if: hasEmacsAndEglot, "emacs with eglot, or script, is not installed: the eglot test did not run"))
  func diagnosticsFollowTypingAndTheModelOnDisk() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "M.xcdatamodel/contents": Self.model,
        "t.outline": "<outline model=\"M.xcdatamodel\">\n  <Tag name=\"a\" colour=\"red\"/>\n</outline>\n",
      ], in: folder)
    let editors = CLI.repository.appendingPathComponent("Documentation/editors")
    let result = folder.appendingPathComponent("result.txt")
    var environment = ProcessInfo.processInfo.environment
    environment["OUTLINE_BIN"] = CLI.products.appendingPathComponent("outline").path
    environment["OUTLINE_EDITORS"] = editors.path
    environment["OUTLINE_EMACS_FILE"] = folder.appendingPathComponent("t.outline").path
    environment["OUTLINE_EMACS_MODEL"] = folder.appendingPathComponent("M.xcdatamodel/contents").path
    environment["OUTLINE_EMACS_RESULT"] = result.path
    environment["TERM"] = "xterm"
    environment["HOME"] = folder.path  // no user configuration, no state left behind
    let run = try CLI.program(
      "timeout",
      [
        "120", "script", "-qec", "emacs -nw -q --no-splash -l '\(editors.path)/emacs-watch.el'", "/dev/null",
      ], environment: environment, in: folder)
    #expect(run.status == 0)
    let lines = try String(contentsOf: result, encoding: .utf8).split(separator: "\n").map(String.init)
    let unknown = "2:outline [OL203]: 'colour' is not an attribute or relationship of 'Tag'"
    #expect(
      lines == [
        "opened: \(unknown)",
        "watching files: yes",
        "typed: \(unknown) | 3:outline [OL204]: 'Tag' needs 'name' (String, not optional, no default)",
        "model changed: clean",
        "server told by the watcher: yes",
      ])
  }
}
