import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

/// A baseline written for generated documents (valid or broken, any layout) holds every problem
/// they have: `--baseline` on the same files reports nothing and exits 0, and still does after an
/// edit that changes no problem: `fmt`, the lines reindented, a comment inserted above
/// everything (Documentation/Baseline.md).
@Suite struct BaselineProperties {
  /// `--baseline b.json` over `a.outline` in `folder`: nil when it reports nothing, else what it said.
  static func reportsNothing(in folder: URL, after edit: String) throws -> String? {
    let run = try Binary.run(
      "outline-lint", ["--baseline", "b.json", "--format", "json", "a.outline"], in: folder)
    guard let report = try? JSONValue.parse(Array(run.stdout.utf8)), let summary = report["summary"] else {
      return "after \(edit): no JSON report (exit \(run.status)): \(run.stdout)\(run.stderr)"
    }
    let counts = ["errors", "warnings", "information", "hints", "baselineAbsent"].map {
      summary[$0]?.intValue ?? -1
    }
    if run.status != 0 || counts != [0, 0, 0, 0, 0] {
      return "after \(edit): exit \(run.status), \(summary.serialized())\n\(run.stdout)"
    }
    return nil
  }

  /// Each line that starts a tag after a line that ended one, indented by `extra` more.
  static func reindented(_ text: String, by extra: String) -> String {
    var lines = text.components(separatedBy: "\n")
    for index in lines.indices.dropFirst() {
      let trimmed = lines[index].drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("<"), lines[index - 1].hasSuffix(">") { lines[index] = extra + trimmed }
    }
    return lines.joined(separator: "\n")
  }

  @Test func aBaselineHoldsEveryProblemAcrossHarmlessEdits() throws {
    try Property.check("a written baseline holds its problems across fmt and layout", cases: 12) {
      random, _ in
      let generated = ModelGenerator.generate(using: &random)
      var options = DocumentGenerator.Options.random(modelPath: "M.xcdatamodel", using: &random)
      options.problems = Int.random(in: 1...3, using: &random)
      options.mayBreakSyntax = false
      let document = DocumentGenerator.generate(for: generated, options: options, using: &random)
      let folder = try Binary.folder(["M.xcdatamodel/contents": generated.text, "a.outline": document.text])
      defer { Scratch.remove(folder.path) }
      let written = try Binary.run("outline-lint", ["--write-baseline", "b.json", "a.outline"], in: folder)
      if written.status != 0 {
        return "--write-baseline exit \(written.status): \(written.stderr)\n\(document)"
      }
      if let failure = try Self.reportsNothing(in: folder, after: "nothing") {
        return failure + "\n\(document)"
      }

      let text = Binary.read("a.outline", in: folder) ?? ""
      let shifted = Self.reindented(text, by: ["  ", "\t", "        "].randomElement(using: &random)!)
      try Data(shifted.utf8).write(to: folder.appendingPathComponent("a.outline"))
      if let failure = try Self.reportsNothing(in: folder, after: "reindenting") {
        return failure + "\n\(shifted)"
      }

      if let end = shifted.range(of: "?>") {
        let commented = shifted.replacingCharacters(in: end, with: "?>\n<!-- a note -->\n\n")
        try Data(commented.utf8).write(to: folder.appendingPathComponent("a.outline"))
        if let failure = try Self.reportsNothing(in: folder, after: "a comment above") {
          return failure + "\n\(commented)"
        }
      }
      let fmt = try Binary.run("outline", ["fmt", "a.outline"], in: folder)
      if fmt.status == 0, let failure = try Self.reportsNothing(in: folder, after: "fmt") {
        return failure + "\n\(Binary.read("a.outline", in: folder) ?? "")"
      }
      return nil
    }
  }
}
