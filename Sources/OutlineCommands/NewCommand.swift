import ArgumentParser
import Foundation
import OutlineConvert
import OutlineCore
import OutlineFiles
import OutlineModel
import OutlineWorkspace

/// `outline new [--model PATH] [-o FILE] [--force]`: a minimal valid outline to start from.
struct NewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "new",
    abstract: "Write a minimal valid outline for a model's root entity.",
    discussion: """
      The outline holds the root object and one item, with every required attribute \
      (its default, else a placeholder the linter accepts) and the objects that required \
      relationships call for. Without --model it uses the model .outline.json names for the \
      output, else the default model. With -o, model="..." is written relative to the output \
      file's folder. A model the outline could not name (outside its project, OL106) is \
      refused with how to allow it. An existing file is never replaced unless --force is given.

      The outline is checked as lint will check it before it is written: what is written \
      lints clean, or nothing is written and the reasons are said.

      Exit status: 0 written, 1 nothing written: the model has errors, lies outside the \
      outline's project or asks for what no outline can hold, 2 usage or I/O trouble (an \
      existing output, a model that cannot be read).
      """)

  @Option(help: ArgumentHelp("The model: a contents file, .xcdatamodel or .xcdatamodeld.", valueName: "path"))
  var model: String?

  @Option(name: .shortAndLong, help: "The output file, or - for standard output (the default).")
  var output: String?

  @Flag(help: "Replace the output file if it exists.")
  var force = false

  func run() throws {
    let writesFile = output.map { $0 != "-" } ?? false
    // The document as lint will see it: the file written, or (standard output) a document in the
    // working folder, as `outline-lint -` judges one.
    let documentPath = writesFile ? output : nil
    if let output, writesFile, !force && FileManager.default.fileExists(atPath: output) {
      Terminal.error(
        "\(Excerpt.quotedPath(output)) already exists; nothing was written (--force replaces it)")
      throw ExitCode(2)
    }
    // The output is opened first (a folder that is not there is said as such), and only
    // committed once the outline is known to lint.
    var writer: AtomicFileWriter?
    if let output, writesFile {
      do {
        writer = try AtomicFileWriter(path: output)
      } catch {
        Terminal.error(error.description)
        throw ExitCode(2)
      }
    }
    let text: String
    do {
      text = try outline(documentPath: documentPath)
    } catch {
      writer?.discard()
      throw error
    }
    guard let writer else {
      Terminal.write(text)
      return
    }
    writer.write(Array(text.utf8))
    do {
      try writer.commit()
    } catch {
      Terminal.error(error.description)
      throw ExitCode(2)
    }
  }

  /// The outline's text, checked to lint where it will be (`documentPath`, nil for standard
  /// output); a refusal is said on standard error and thrown as its exit status.
  private func outline(documentPath: String?) throws -> String {
    let finder = ConfigurationFinder()
    let configuration = finder.configuration(for: documentPath ?? "./-")
    let resolution = ModelResolution(override: nil, configuration: configuration, cache: ModelCache())
    let chosen = try chooseModel(
      documentPath: documentPath, configuration: configuration, resolution: resolution)
    let errors = chosen.model.diagnostics.filter { $0.severity == .error }
    if !errors.isEmpty {
      let named = Excerpt.quotedPath(chosen.shownPath)
      var message =
        "model \(named) has \(counted(errors.count, "error")) (run `outline model check \(Self.shellQuoted(chosen.shownPath))`); nothing was written"
      let unwritable = ModelNames.unwritable(in: chosen.model)
      if !unwritable.isEmpty {
        let listed = unwritable.map { "\($0.kind.rawValue) \(Excerpt.quoted($0.qualifiedName))" }
        message +=
          ": no document can spell \(listed.count == 1 ? "this name" : "these names") as an XML name: "
          + listed.joined(separator: ", ")
      }
      Terminal.error(message)
      throw ExitCode(1)
    }
    let template = OutlineTemplate.make(
      for: chosen.model, modelPath: chosen.attribute, modelVersion: currentVersion(of: chosen.versionsPath))
    let name = documentPath.map { Excerpt.quotedPath($0) } ?? "the outline"
    // Some models ask for what no outline can hold: nothing is written, and the reasons said.
    if !template.problems.isEmpty {
      Terminal.error(
        "\(name) would not lint clean: \(template.problems.joined(separator: "; ")); nothing was written")
      throw ExitCode(1)
    }
    // What is written lints: the outline is checked as lint will check it, where it will be.
    let check = DocumentCheck.run(
      SourceText(template.text), path: documentPath, modelOverride: nil, configurations: finder,
      models: ModelCache(), buildTree: false)
    let problems = check.diagnostics.filter { $0.severity == .error }
    if !problems.isEmpty {
      let source = SourceText(template.text)
      let said = problems.prefix(3).map { error -> String in
        let position = source.position(of: error.range.start, unit: .scalar)
        return "\(position.line + 1):\(position.column + 1): error[\(error.code)]: \(error.message)"
      }
      Terminal.error(
        "\(name) would not lint clean (\(said.joined(separator: "; "))\(problems.count > 3 ? "; ..." : "")); nothing was written"
      )
      throw ExitCode(1)
    }
    return template.text
  }

  /// The model a new outline is for, and how the outline names it.
  private struct Chosen {
    var model: Model
    /// The `model` attribute to write; nil when the configuration (or the default) supplies it.
    var attribute: String?
    /// The model's path as messages show it.
    var shownPath: String
    /// The path whose versions decide `modelVersion`; nil for the default model.
    var versionsPath: String?
  }

  /// `--model` when given, refused (exit 1) when the written outline could not name it (OL106);
  /// else the model `.outline.json` names for the output, as lint would choose it, else the default.
  private func chooseModel(
    documentPath: String?, configuration: Configuration?, resolution: ModelResolution
  ) throws -> Chosen {
    let where_ =
      documentPath.map { Excerpt.quotedPath($0) } ?? "an outline in the working folder (standard output)"
    guard let model else {
      switch resolution.provider(for: documentPath)(nil) {
      case .loaded(let loaded):
        let configured = configuration?.modelPathAndName(for: documentPath)
        return Chosen(
          model: loaded, attribute: nil, shownPath: configured?.named ?? "the default model",
          versionsPath: configured?.path)
      case .unreadable(let reason):
        Terminal.error(
          "the model .outline.json names for \(where_) cannot be read: \(reason); nothing was written")
        throw ExitCode(2)
      case .refused(let reason):
        Terminal.error("\(DiagnosticCode.modelOutsideProject): \(reason); nothing was written")
        throw ExitCode(2)
      }
    }
    let loaded: Model
    do {
      loaded = try ModelLocator.load(path: model)
    } catch {
      Terminal.error("\(error)")
      throw ExitCode(2)
    }
    let attribute: String
    if let documentPath {
      attribute = Self.relativePath(
        of: model, from: URL(fileURLWithPath: documentPath).deletingLastPathComponent())
    } else {
      attribute = model
    }
    // The outline names the model; lint reads it only from inside the outline's project (OL106).
    let folder = documentPath.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? "."
    let roots = ModelResolution.modelRoots(for: documentPath, configuration: configuration)
    if let outside = ProjectRoot.outside(
      modelPath: attribute.hasPrefix("/") ? attribute : folder + "/" + attribute, named: attribute,
      roots: roots)
    {
      let file = configuration?.path ?? (outside.project + "/" + Configuration.fileName)
      Terminal.error(
        "\(where_) would name the model \(ProjectRoot.quoted(attribute)), which lies outside its project \(ProjectRoot.quoted(outside.project))\(outside.leadsTo.map { " (it leads to \(ProjectRoot.quoted($0)))" } ?? ""): lint would not read it (\(DiagnosticCode.modelOutsideProject)); nothing was written. To allow it, list \(ProjectRoot.quoted(outside.modelFolder)) in 'modelRoots' of \(ProjectRoot.quoted(file)); or write the outline inside the model's project"
      )
      throw ExitCode(1)
    }
    return Chosen(model: loaded, attribute: attribute, shownPath: model, versionsPath: model)
  }

  /// The version a new document of a model with several versions is for (its current one),
  /// recorded as `fmt` and `migrate` record it; nil for a model of one version.
  private func currentVersion(of path: String?) -> String? {
    guard let path, let history = try? ModelLocator.history(path: path), history.versions.count > 1 else {
      return nil
    }
    return history.versions[history.current].name
  }

  /// `path` relative to `folder` (both resolved against the current directory and symbolic links).
  static func relativePath(of path: String, from folder: URL) -> String {
    let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().pathComponents
    let base = folder.standardizedFileURL.resolvingSymlinksInPath().pathComponents
    var common = 0
    while common < target.count && common < base.count && target[common] == base[common] { common += 1 }
    let parts = Array(repeating: "..", count: base.count - common) + target[common...]
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }

  /// `path` as a shell reads it back: as it is when plain, else in single quotes.
  static func shellQuoted(_ path: String) -> String {
    let plain = path.unicodeScalars.allSatisfy {
      ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil))
        || "/._-+,:@%".unicodeScalars.contains($0)
    }
    return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
