import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

/// `outline-lint`, `outline lint` and the language server say the same about every generated
/// document, valid or broken, in any layout: the same codes at the same places.
@Suite struct AgreementProperties {
  @Test func linterCommandAndServerReportTheSame() throws {
    let server = try Server()
    server.initialize()
    defer { server.close() }
    try Property.check("outline-lint, outline lint and the server agree", cases: 25) { random, _ in
      let generated = ModelGenerator.generate(using: &random)
      let options = DocumentGenerator.Options.random(modelPath: "M.xcdatamodel", using: &random)
      let document = DocumentGenerator.generate(for: generated, options: options, using: &random)
      let folder = try Binary.folder(["M.xcdatamodel/contents": generated.text, "a.outline": document.text])
      defer { Scratch.remove(folder.path) }
      let lint = try Binary.run("outline-lint", ["--format", "json", "a.outline"], in: folder)
      let command = try Binary.run("outline", ["lint", "--format", "json", "a.outline"], in: folder)
      guard let fromLint = Self.places(lint), let fromCommand = Self.places(command) else {
        return "no JSON report: \(lint.stdout)\(lint.stderr) / \(command.stdout)\(command.stderr)"
      }
      if fromLint != fromCommand {
        return "outline-lint \(fromLint) but outline lint \(fromCommand)\n\(document)"
      }
      let uri = folder.appendingPathComponent("a.outline").absoluteString
      guard let published = server.diagnostics(opening: uri, document.text) else {
        return "the server published no diagnostics\n\(document)"
      }
      let source = SourceText(document.text)
      let fromServer = published.map { diagnostic -> String in
        let start = diagnostic["range"]?["start"]
        let offset = source.offset(
          of: SourcePosition(
            line: start?["line"]?.intValue ?? -1, column: start?["character"]?.intValue ?? -1),
          unit: .utf16)
        return "\(diagnostic["code"]?.stringValue ?? "?")@\(offset)"
      }.sorted()
      return fromServer == fromLint
        ? nil : "outline-lint \(fromLint) but the server \(fromServer)\n\(generated)\n\(document)"
    }
  }

  /// The diagnostics of a `--format json` report of one file, each `CODE@offset`, sorted.
  static func places(_ output: Binary.Output) -> [String]? {
    guard let report = try? JSONValue.parse(Array(output.stdout.utf8)),
      let diagnostics = report["files"]?.arrayValue?.first?["diagnostics"]?.arrayValue
    else { return nil }
    return diagnostics.map { diagnostic in
      "\(diagnostic["code"]?.stringValue ?? "?")@\(diagnostic["range"]?["start"]?["offset"]?.intValue ?? -1)"
    }.sorted()
  }
}
