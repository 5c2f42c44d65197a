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
      relationships call for. Without --model it uses the default model. With -o, \
      model="..." is written relative to the output file's folder. An existing file is \
      never replaced unless --force is given.

      Exit status: 0 written, 1 the model has errors (nothing written) or asks for what no \
      outline can hold (the skeleton is still written), 2 usage or I/O trouble (an existing \
      output).
      """)

  @Option(help: ArgumentHelp("The model: a contents file, .xcdatamodel or .xcdatamodeld.", valueName: "path"))
  var model: String?

  @Option(name: .shortAndLong, help: "The output file, or - for standard output (the default).")
  var output: String?

  @Flag(help: "Replace the output file if it exists.")
  var force = false

  func run() throws {
    let loaded: Model
    if let model {
      do {
        loaded = try ModelLocator.load(path: model)
      } catch {
        Terminal.error("\(error)")
        throw ExitCode(2)
      }
      let errors = loaded.diagnostics.filter { $0.severity == .error }
      if !errors.isEmpty {
        Terminal.error(
          "model \(Excerpt.quotedPath(model)) has \(errors.count) error\(errors.count == 1 ? "" : "s") (run `outline model check \(Self.shellQuoted(model))`); nothing was written"
        )
        throw ExitCode(1)
      }
    } else {
      loaded = ModelLoader.defaultModel
    }
    let template: (text: String, problems: [String])
    if let output, output != "-" {
      if !force && FileManager.default.fileExists(atPath: output) {
        Terminal.error(
          "\(Excerpt.quotedPath(output)) already exists; nothing was written (--force replaces it)")
        throw ExitCode(2)
      }
      let folder = URL(fileURLWithPath: output).deletingLastPathComponent()
      template = OutlineTemplate.make(
        for: loaded, modelPath: model.map { Self.relativePath(of: $0, from: folder) },
        modelVersion: currentVersion())
      do {
        try AtomicFile.write(Array(template.text.utf8), to: output)
      } catch {
        Terminal.error(error.description)
        throw ExitCode(2)
      }
    } else {
      template = OutlineTemplate.make(for: loaded, modelPath: model, modelVersion: currentVersion())
      Terminal.write(template.text)
    }
    // Some models ask for what no outline can hold; the user still gets the skeleton.
    if !template.problems.isEmpty {
      let name = output.flatMap { $0 == "-" ? nil : $0 } ?? "the outline"
      Terminal.error("\(name) will not lint clean: \(template.problems.joined(separator: "; "))")
      throw ExitCode(1)
    }
  }

  /// The version a new document of a model with several versions is for (its current one),
  /// recorded as `fmt` and `migrate` record it; nil for a model of one version.
  private func currentVersion() -> String? {
    guard let model, let history = try? ModelLocator.history(path: model), history.versions.count > 1 else {
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
