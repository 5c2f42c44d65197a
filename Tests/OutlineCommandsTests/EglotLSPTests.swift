import Foundation
import TestSupport
import Testing

/// The server in Emacs with eglot (1.9 on Debian 12), in batch mode:
/// eglot registers the server's file watchers, so a model changed on disk
/// reaches the server as `workspace/didChangeWatchedFiles`, with no request.
@Suite(.serialized) struct EglotLSPTests {
  /// Emacs, when it can load eglot.
  static let emacs: String? = {
    guard
      let emacs = ["/usr/bin", "/bin", "/usr/local/bin"].map({ "\($0)/emacs" }).first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { return nil }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: emacs)
    probe.arguments = ["--batch", "--eval", "(progn (package-initialize) (require 'eglot))"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return nil }
    probe.waitUntilExit()
    return probe.terminationStatus == 0 ? emacs : nil
  }()

  static let script = #"""
    ;;; -*- lexical-binding: t -*-
    (package-initialize)
    (require 'eglot)
    (require 'flymake)
    (define-derived-mode outline-file-mode nxml-mode "Outline")
    (add-to-list 'eglot-server-programs `(outline-file-mode . (,(getenv "OUTLINE_BIN") "lsp")))
    (defvar outline-test-result nil)
    (defun outline-test-record (key value) (push (format "%s=%s" key value) outline-test-result))
    (defun outline-test-wait (predicate seconds)
      ;; read-event lets file-notify events in, as the command loop would.
      (let ((deadline (+ (float-time) seconds)))
        (while (and (< (float-time) deadline) (not (funcall predicate)))
          (accept-process-output nil 0.05)
          (read-event nil nil 0.05))))
    (defun outline-test-diagnostics ()
      (mapconcat (lambda (d) (format "%d:%s" (line-number-at-pos (flymake-diagnostic-beg d)) (flymake-diagnostic-text d)))
                 (flymake-diagnostics) "|"))
    (condition-case err
        (progn
          (find-file (expand-file-name "t.outline" (getenv "ROOT")))
          (outline-file-mode)
          ;; eglot-ensure waits for a command loop; in batch mode start the server directly.
          (apply #'eglot (eglot--guess-contact))
          (outline-test-wait (lambda () (flymake-diagnostics)) 30)
          (outline-test-record "open" (outline-test-diagnostics))
          (with-temp-file (expand-file-name "M.xcdatamodel/contents" (getenv "ROOT"))
            (insert "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model>\n  <entity name=\"Tag\">\n"
                    "    <attribute name=\"name\" attributeType=\"String\"/>\n"
                    "    <attribute name=\"colour\" optional=\"YES\" attributeType=\"String\"/>\n  </entity>\n</model>\n"))
          (outline-test-wait (lambda () (null (flymake-diagnostics))) 30)
          (outline-test-record "afterModelChange" (outline-test-diagnostics)))
      (error (outline-test-record "error" err)))
    (with-temp-file (getenv "RESULT") (insert (mapconcat #'identity (reverse outline-test-result) "\n")))
    (kill-emacs 0)
    """#

  @Test(
    .enabled(
      if: emacs != nil,
      "emacs with eglot is not installed (emacs-nox, elpa-eglot): the eglot test did not run"))
  func eglotSeesAModelChangedOnDisk() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "M.xcdatamodel/contents": NeovimLSPTests.model,
        "t.outline": "<outline model=\"M.xcdatamodel\">\n  <Tag name=\"a\" colour=\"red\"/>\n</outline>\n",
        "check.el": Self.script,
      ], in: folder)
    let result = folder.appendingPathComponent("result.txt")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.emacs!)
    process.arguments = ["--batch", "-l", folder.appendingPathComponent("check.el").path]
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["OUTLINE_BIN"] = CLI.products.appendingPathComponent("outline").path
    environment["ROOT"] = folder.path
    environment["RESULT"] = result.path
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard let recorded = try EditorRun.recorded(process, name: "emacs", result: result) else { return }
    #expect(recorded["error"] == nil)
    #expect(recorded["open"] == "2:outline [OL203]: 'colour' is not an attribute or relationship of 'Tag'")
    #expect(recorded["afterModelChange"] == "")
  }
}
