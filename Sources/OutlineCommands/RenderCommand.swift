import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineWorkspace

/// `outline render FILE --html [-o OUT]`: the outline as one self-contained HTML page.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render an outline as one self-contained HTML page.",
    discussion: """
      The page shows the outline as a collapsible tree with item numbers (1.3.2), each \
      item's attributes, and the diagnostics outline-lint reports, at the item where they \
      occur, after a summary. It needs nothing else: no network, no external script, style \
      or font. A file with errors renders with its errors; one that does not parse shows \
      its diagnostics only. Without -o (or with -o -) the page goes to standard output; \
      an -o file is replaced, atomically, but never the input.

      Exit status: 0 rendered, 2 usage or I/O trouble.
      """)

  @Argument(help: "The .outline file.")
  var input: String

  @Flag(help: "Write HTML (the one format so far).")
  var html = false

  @Option(name: .shortAndLong, help: "The output file, or - for standard output (the default).")
  var output: String?

  @Option(help: ArgumentHelp("Use this model, whatever the file says.", valueName: "path"))
  var model: String?

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  func validate() throws {
    if !html { throw ValidationError("Say which format to render: --html.") }
  }

  func run() throws {
    if let output, output != "-", Self.sameFile(output, input) {
      Terminal.error(
        "\(Excerpt.quotedPath(output)) is the input; render writes the page elsewhere (choose another -o)")
      throw ExitCode(2)
    }
    let configurations = ConfigurationFinder(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    let bytes: [UInt8]
    do {
      bytes = try FileInput.read(input, limit: configurations.inputLimit(for: input, maxSize: maxSize))
    } catch {
      Terminal.error(error.description)
      throw ExitCode(2)
    }
    let source = SourceText(bytes: bytes)
    let check = DocumentCheck.run(
      source, path: input, modelOverride: model, configurations: configurations,
      models: ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit), buildTree: true)
    // A model `--model` or the configuration names that cannot be read is the run's trouble.
    if let unreadable = check.unreadableNamedModel {
      Terminal.error("\(input): \(unreadable.message); nothing was rendered")
      throw ExitCode(2)
    }
    let page = HTMLPage.render(
      path: input, source: source, tree: check.tree, diagnostics: check.diagnostics,
      modelName: check.model?.path)
    let target = try OutputTarget.open(output)
    target.write(Array(page.utf8))
    do {
      try target.commit()
    } catch {
      Terminal.error(error.description)
      throw ExitCode(2)
    }
  }

  /// Whether two paths name one file (the same device and inode), or the same path.
  static func sameFile(_ first: String, _ second: String) -> Bool {
    // The writers' own test (links followed, device and inode); a path not there yet is the input
    // only when it names it.
    AtomicFile.sameFile(first, second)
      || URL(fileURLWithPath: first).standardizedFileURL == URL(fileURLWithPath: second).standardizedFileURL
  }
}
