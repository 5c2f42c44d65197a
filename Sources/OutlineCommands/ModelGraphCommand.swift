import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineModel
import OutlineWorkspace

/// `outline model graph MODEL [--format mermaid|dot] [--model-version NAME] [-o FILE]`.
struct ModelGraphCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "graph",
    abstract: "Draw a Core Data model as Xcode's graph editor does (Mermaid or Graphviz DOT).",
    discussion: """
      Entities with their attributes and types (? marks optional ones), inheritance, and \
      relationships with their multiplicity, delete rule and ordering; an inverse pair is \
      one line with both ends. Mermaid output (a classDiagram) renders on GitHub in a \
      ```mermaid block; DOT goes to Graphviz (dot -Tsvg). For a .xcdatamodeld bundle the \
      current version is drawn unless --model-version names another.

      Exit status: 0 drawn, 2 usage or I/O trouble (a model or version that cannot be read).
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case mermaid, dot
  }

  @Argument(help: "A contents file, a .xcdatamodel folder or a .xcdatamodeld bundle.")
  var model: String

  @Option(help: "The diagram format: mermaid or dot.")
  var format: Format = .mermaid

  @Option(help: ArgumentHelp("A version of the bundle (its .xcdatamodel name).", valueName: "name"))
  var modelVersion: String?

  @Option(name: .shortAndLong, help: "The output file, or - for standard output (the default).")
  var output: String?

  func run() throws {
    let loaded: Model
    let path = try versionPath()
    do {
      loaded = try ModelLocator.load(path: path)
    } catch {
      Terminal.error("\(error)")
      throw ExitCode(2)
    }
    let graph = ModelGraph(loaded)
    let text = format == .mermaid ? MermaidGraph.render(graph) : DOTGraph.render(graph)
    guard let output, output != "-" else {
      Terminal.write(text)
      return
    }
    do {
      try AtomicFile.write(Array(text.utf8), to: output)
    } catch {
      Terminal.error(error.description)
      throw ExitCode(2)
    }
  }

  /// The model path, or the named version inside the bundle.
  private func versionPath() throws(ExitCode) -> String {
    guard let modelVersion else { return model }
    guard URL(fileURLWithPath: model).pathExtension == "xcdatamodeld" else {
      Terminal.error("--model-version needs a .xcdatamodeld bundle; \(Excerpt.quotedPath(model)) is not one")
      throw ExitCode(2)
    }
    let name = modelVersion.hasSuffix(".xcdatamodel") ? modelVersion : modelVersion + ".xcdatamodel"
    let path = URL(fileURLWithPath: model).appendingPathComponent(name).path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      let versions =
        ((try? FileManager.default.contentsOfDirectory(atPath: model)) ?? [])
        .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        .map { Excerpt.quoted($0.dropLast(".xcdatamodel".count)) }
      Terminal.error(
        "model bundle \(Excerpt.quotedPath(model)) has no version \(Excerpt.quoted(modelVersion)) (it has \(versions.joined(separator: ", ")))"
      )
      throw ExitCode(2)
    }
    return model.hasSuffix("/") ? model + name : model + "/" + name
  }
}
