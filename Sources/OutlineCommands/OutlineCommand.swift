import ArgumentParser
import OutlineCore

/// `outline`: every face of the toolchain on the command line.
public struct OutlineCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "outline",
    abstract:
      "A toolchain for .outline files: lint, format, convert, import/export OPML, check models, serve LSP.",
    version: ToolVersion.current,
    subcommands: [
      LintCommand.self, FmtCommand.self, ConvertCommand.self, ImportCommand.self, ExportCommand.self,
      NewCommand.self, RenderCommand.self, MigrateCommand.self, DiffCommand.self,
      MergeCommand.self, ModelCommand.self, LSPCommand.self, ExplainCommand.self,
    ])

  public init() {}
}
