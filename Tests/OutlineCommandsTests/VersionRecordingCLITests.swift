import Foundation
import OutlineCore
import OutlineModel
import OutlineValidation
import OutlineWorkspace
import TestSupport
import Testing

/// What `fmt` and `migrate` record for a document whose root records no model version
/// (issue 32, items 6 and 7), as Migration.md says: `fmt` records the version the document fits
/// with no errors (the current one when several fit, else the newest before it), and
/// `migrate --to V` of a document that already fits `V` is trivial: exit 0, `V` recorded,
/// nothing else changed.
@Suite struct VersionRecordingCLITests {
  static let bundle = CLI.repository.appendingPathComponent("Tests/Fixtures/versions/Tasks.xcdatamodeld")

  /// A folder holding the four-version `Tasks.xcdatamodeld` and `files`.
  static func project(_ files: [String: String]) throws -> URL {
    let folder = try CLI.temporaryFolder()
    try FileManager.default.copyItem(at: bundle, to: folder.appendingPathComponent("Tasks.xcdatamodeld"))
    try CLI.write(files, in: folder)
    return folder
  }

  static func read(_ folder: URL, _ name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  /// `text` with `modelVersion="version"` recorded after its root's `model`.
  static func recording(_ version: String, in text: String) -> String {
    text.replacingOccurrences(
      of: "model=\"Tasks.xcdatamodeld\"", with: "model=\"Tasks.xcdatamodeld\" modelVersion=\"\(version)\"")
  }

  /// Fits the first version only: it has errors against the current one.
  static let fitsFirst = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" model="Tasks.xcdatamodeld">
      <Task order="0" title="x" note="n" done="YES"/>
    </outline>

    """

  /// Fits 'Tasks 3' and 'Tasks 4' (the current one).
  static let fitsThreeAndFour = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" model="Tasks.xcdatamodeld" owner="r">
      <Task order="0" title="x" owner="o"/>
    </outline>

    """

  /// Fits no version with no errors.
  static let fitsNone = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" model="Tasks.xcdatamodeld">
      <Task order="0" title="x" bogus="1"/>
    </outline>

    """

  @Test func fmtRecordsTheOlderVersionADocumentFits() throws {
    let folder = try Self.project(["first.outline": Self.fitsFirst, "none.outline": Self.fitsNone])
    let run = try CLI.run("outline", ["fmt", "first.outline", "none.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.read(folder, "first.outline") == Self.recording("Tasks", in: Self.fitsFirst))
    #expect(try Self.read(folder, "none.outline") == Self.fitsNone)
    // A second run changes nothing; lint now says the recorded version.
    let again = try CLI.run("outline", ["fmt", "--check", "first.outline", "none.outline"], in: folder)
    #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)")
    let verbose = try CLI.run("outline", ["lint", "--verbose", "first.outline"], in: folder)
    #expect(verbose.stderr.contains("first.outline: written for model version 'Tasks'"), "\(verbose.stderr)")
    // Standard input, piped or a file, gets the same recording.
    let piped = try CLI.run(
      "outline", ["fmt", "-", "--stdin-filename", "in.outline"], in: folder, input: Self.fitsFirst)
    #expect(piped.stdout == Self.recording("Tasks", in: Self.fitsFirst), "\(piped.stderr)")
    let checked = try CLI.run(
      "outline", ["fmt", "--check", "-", "--stdin-filename", "in.outline"], in: folder,
      input: Self.recording("Tasks", in: Self.fitsFirst))
    #expect(checked.status == 0 && checked.stdout.isEmpty)
    let redirected = try CLI.program(
      "/bin/sh", ["-c", "'\(CLI.products.path)/outline' fmt - --stdin-filename in.outline < none.outline"],
      in: folder)
    #expect(redirected.stdout == Self.fitsNone, "\(redirected.stderr)")
  }

  /// The editor's Format Document gives `fmt`'s text, the recorded version with it.
  @Test func theServersFormattingRecordsWhatFmtRecords() throws {
    let folder = try Self.project([:])
    let expected = try LSPFormattingAgreesWithFmtTests.fmt(Self.fitsFirst, "fmt.outline", in: folder)
    #expect(String(decoding: expected, as: UTF8.self) == Self.recording("Tasks", in: Self.fitsFirst))
    let client = try LSPClient.initialized(root: folder)
    defer { _ = client.close() }
    let uri = folder.appendingPathComponent("open.outline").absoluteString
    client.open(uri, Self.fitsFirst)
    _ = client.diagnostics(uri)
    let edits = LSPFormattingAgreesWithFmtTests.formatting(client, uri)
    #expect(
      LSPFormattingAgreesWithFmtTests.appliedAsAnEditor(edits, to: Self.fitsFirst).map { Array($0.utf8) }
        == expected)
  }

  @Test func fmtRecordsTheCurrentVersionWhenSeveralFit() throws {
    let folder = try Self.project(["both.outline": Self.fitsThreeAndFour])
    let run = try CLI.run("outline", ["fmt", "both.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.read(folder, "both.outline") == Self.recording("Tasks 4", in: Self.fitsThreeAndFour))
  }

  @Test func migrateToAVersionTheDocumentFitsIsTrivial() throws {
    let folder = try Self.project(["both.outline": Self.fitsThreeAndFour, "first.outline": Self.fitsFirst])
    let check = try CLI.run("outline", ["migrate", "--to", "Tasks 3", "--check", "both.outline"], in: folder)
    #expect(
      check.status == 1 && check.stdout.contains("migration pending from 'Tasks 3' (inferred) to 'Tasks 3'"))
    let run = try CLI.run("outline", ["migrate", "--to", "Tasks 3", "both.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.read(folder, "both.outline") == Self.recording("Tasks 3", in: Self.fitsThreeAndFour))
    let again = try CLI.run("outline", ["migrate", "--to", "Tasks 3", "both.outline"], in: folder)
    #expect(again.status == 0 && !again.stderr.contains("migrated"), "\(again.stderr)")
    // A version the document does not fit is still refused when the one it fits is newer.
    try CLI.write(["both.outline": Self.fitsThreeAndFour], in: folder)
    let back = try CLI.run("outline", ["migrate", "--to", "Tasks", "both.outline"], in: folder)
    #expect(back.status == 1 && back.stderr.contains("newer than 'Tasks'; migrate does not go back"))
    #expect(try Self.read(folder, "both.outline") == Self.fitsThreeAndFour)
  }

  @Test func migrateToAVersionTheJSONFormFitsIsTrivial() throws {
    let folder = try Self.project(["both.outline": Self.fitsThreeAndFour])
    let converted = try CLI.run("outline", ["convert", "both.outline", "-o", "both.json"], in: folder)
    #expect(converted.status == 0, "\(converted.stderr)")
    let before = try Self.read(folder, "both.json")
    #expect(!before.contains("@modelVersion"))
    let run = try CLI.run("outline", ["migrate", "--to", "Tasks 3", "both.json"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      try Self.read(folder, "both.json")
        == before.replacingOccurrences(
          of: "\"@model\":\"Tasks.xcdatamodeld\"",
          with: "\"@model\":\"Tasks.xcdatamodeld\",\"@modelVersion\":\"Tasks 3\""))
  }

  // MARK: Property

  /// The attributes a `Task` may have in the version a document is written for, and whether
  /// it needs `owner`.
  static let styles: [(attributes: [String], owner: Bool, archive: Bool)] = [
    (["title", "note", "done"], false, true), (["title", "details", "done", "priority"], false, true),
    (["title", "summary", "priority"], true, false), (["title", "summary", "priority"], true, false),
  ]

  /// A document recording no version, written mostly for one version of the bundle (at
  /// random), with now and then a name of another.
  static func document(_ random: inout SeededGenerator) -> String {
    let style = styles[Int.random(in: 0..<styles.count, using: &random)]
    let every = ["title", "note", "done", "details", "priority", "summary"]
    func attributes(order: Int?) -> String {
      var text = order.map { " order=\"\($0)\"" } ?? ""
      for name in style.attributes where Bool.random(using: &random) {
        let value =
          switch name {
          case "done": Bool.random(using: &random) ? "YES" : "NO"
          case "priority": "\(Int.random(in: 0...3, using: &random))"
          default: "v\(Int.random(in: 0...9, using: &random))"
          }
        text += " \(name)=\"\(value)\""
      }
      if style.owner || Int.random(in: 0..<8, using: &random) == 0 { text += " owner=\"o\"" }
      if Int.random(in: 0..<10, using: &random) == 0, let stray = every.randomElement(using: &random),
        !text.contains(" \(stray)=")
      {
        text += " \(stray)=\"1\""
      }
      return text
    }
    var lines = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
      "<outline version=\"1\" model=\"Tasks.xcdatamodeld\"\(attributes(order: nil))>",
    ]
    // Sibling groups numbered 0..n-1, nested up to three levels.
    var stack: [(depth: Int, count: Int)] = [(1, Int.random(in: 0...3, using: &random))]
    var next: [Int] = [0]
    while var top = stack.popLast() {
      let indent = String(repeating: "  ", count: top.depth)
      guard top.count > 0 else {
        next.removeLast()
        if top.depth > 1 { lines.append(String(repeating: "  ", count: top.depth - 1) + "</Task>") }
        continue
      }
      top.count -= 1
      stack.append(top)
      let order = next[next.count - 1]
      next[next.count - 1] += 1
      let children = top.depth < 3 ? Int.random(in: 0...2, using: &random) : 0
      if children == 0 {
        lines.append(indent + "<Task\(attributes(order: order))/>")
      } else {
        lines.append(indent + "<Task\(attributes(order: order))>")
        stack.append((top.depth + 1, children))
        next.append(0)
      }
    }
    if style.archive && Bool.random(using: &random) { lines.append("  <Archive label=\"a\"/>") }
    lines.append("</outline>")
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func fmtRecordsAndMigrateIsTrivialAsDocumented() throws {
    let history = try ModelLocator.history(path: Self.bundle.path)
    let folder = try Self.project([:])
    try Property.check("fmt records the version; migrate --to a fitting version is trivial", cases: 25) {
      random, _ in
      let text = Self.document(&random)
      let errors = history.versions.map { version in
        OutlineValidator.validate(
          SourceText(text), modelProvider: fixedModel(version.model), buildTree: false
        )
        .diagnostics.count { $0.severity == .error }
      }
      let fitting = errors.indices.filter { errors[$0] == 0 }
      // Migration.md: the current version when it fits, else the newest before it.
      let documented =
        fitting.contains(history.current)
        ? history.current : fitting.last { $0 < history.current } ?? fitting.first
      try CLI.write(["doc.outline": text], in: folder)
      let fmt = try CLI.run("outline", ["fmt", "doc.outline"], in: folder)
      guard fmt.status == 0 else { return "fmt exited \(fmt.status): \(fmt.stderr)\n\(text)" }
      let formatted = try Self.read(folder, "doc.outline")
      let root = formatted.split(separator: "\n")[1]
      let expected = documented.map { " modelVersion=\"\(history.versions[$0].name)\"" }
      if let expected, !root.contains(expected) {
        return "fmt wrote \(root), not \(expected) (errors per version \(errors))\n\(text)"
      }
      if expected == nil && root.contains("modelVersion") {
        return "fmt recorded a version of a document that fits none: \(root)\n\(text)"
      }
      for version in fitting {
        let name = history.versions[version].name
        try CLI.write(["doc.outline": text], in: folder)
        let migrate = try CLI.run("outline", ["migrate", "--to", name, "doc.outline"], in: folder)
        let after = try Self.read(folder, "doc.outline")
        guard migrate.status == 0, after == Self.recording(name, in: text) else {
          return
            "migrate --to '\(name)' exited \(migrate.status) (\(migrate.stderr)) giving\n\(after)\nfor\n\(text)"
        }
      }
      return nil
    }
  }
}
