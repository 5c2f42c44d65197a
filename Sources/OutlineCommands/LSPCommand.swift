import ArgumentParser
import JSONRPC
import OutlineLSP

/// `outline lsp`: the language server on standard input and output (SPEC §7).
struct LSPCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lsp",
    abstract: "Run the language server on stdio (LSP 3.17, JSON-RPC with Content-Length framing).",
    discussion: """
      Point any LSP client at `outline lsp` for .outline files: diagnostics as you type, folding, \
      the item tree as symbols, renumber/sort/move code actions, hover, completion, formatting, \
      go to definition, references and rename of ids. Logs go to standard error. See \
      Documentation/Editors.md for editor setups.
      """)

  func run() throws {
    // `workspace/diagnostic` finds a folder's outlines as `outline-lint` does.
    let server = LanguageServer(
      connection: Connection(input: 0, output: 1),
      findOutlines: { folder, configurations in
        FileCollector.collect([folder], configurations: configurations, trouble: { _ in })
      }
    ) { message in
      Terminal.error("lsp: \(message)")
    }
    platformExit(server.run())
  }
}
