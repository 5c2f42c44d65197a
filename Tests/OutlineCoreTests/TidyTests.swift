import Foundation
import Testing

/// The repository's hygiene, and the invariants of Documentation/Architecture.md that a machine can
/// check by reading files: what is tracked, what imports what, how large a file grows, what comments say.
@Suite struct TidyTests {
  // MARK: What is tracked

  /// What may stand at the root of the repository.
  static let rootEntries: Set<String> = [
    ".ci", ".github", ".gitignore", ".pre-commit-hooks.yaml", ".swift-format", "Benchmarks", "Documentation",
    "Fuzz", "Makefile", "Package.resolved", "Package.swift", "README.md", "Sources", "Tests", "action.yml",
    "examples", "schema", "scripts",
  ]

  @Test func tracksNoEmptyOrStrayFile() throws {
    guard let tracked = RepositoryFiles.trackedFiles() else { return }  // not a git checkout
    #expect(tracked.count > 100)
    for path in tracked {
      let top = String(path.split(separator: "/").first ?? "")
      if !Self.rootEntries.contains(top) {
        Issue.record("'\(path)' is tracked at the root, which holds only \(Self.rootEntries.sorted())")
      }
      let attributes = try? FileManager.default.attributesOfItem(
        atPath: RepositoryFiles.root.appendingPathComponent(path).path)
      if let size = attributes?[.size] as? Int, size == 0 {
        Issue.record("'\(path)' is tracked and empty")
      }
    }
  }

  // MARK: Imports

  /// The modules whose files may import libxml2 (invariant 2 of Architecture.md).
  static let libxml2Importers: Set<String> = ["OutlineXML", "OutlineXMLTests"]

  @Test func onlyOutlineXMLImportsLibXML2() throws {
    let architecture = try RepositoryFiles.text("Documentation/Architecture.md").replacingOccurrences(
      of: "\n", with: " ")
    #expect(architecture.contains("only OutlineXML (and its tests) import `CLibXML2`"))
    var importers: Set<String> = []
    for path in RepositoryFiles.swiftFiles where try Self.codeLines(path).contains(where: Self.importsLibXML2)
    {
      importers.insert(RepositoryFiles.module(of: path))
      if !Self.libxml2Importers.contains(RepositoryFiles.module(of: path)) {
        Issue.record("\(path) imports CLibXML2; only \(Self.libxml2Importers.sorted()) may")
      }
    }
    #expect(importers.contains("OutlineXML"))
  }

  static func importsLibXML2(_ line: Substring) -> Bool {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { return false }
    return words[index + 1] == "CLibXML2" || words[index + 1].hasPrefix("CLibXML2.")
  }

  /// The modules that read bytes only through ``ByteView`` (the event API lends views; raw
  /// memory stays in OutlineCore, OutlineXML, OutlineValidation, OutlineConvert, OutlineFiles and
  /// OutlineJSON); every other library module is here.
  static let viewOnlyModules: Set<String> = [
    "OutlineCommands", "OutlineEditing", "OutlineLSP", "OutlineMerge", "OutlineMigration", "OutlineModel",
    "OutlineSyntax", "OutlineWorkspace",
  ]

  @Test func viewOnlyModulesSpellNoUnsafe() throws {
    for path in RepositoryFiles.swiftFiles
    where path.hasPrefix("Sources/") && Self.viewOnlyModules.contains(RepositoryFiles.module(of: path)) {
      for (index, line) in try Self.codeLines(path).enumerated() where Self.spellsUnsafe(line) {
        Issue.record("\(path):\(index + 1) reaches raw memory; its module reads bytes through ByteView")
      }
    }
  }

  /// Whether the line names raw memory (`UnsafeBufferPointer`, `withUnsafeBytes`,
  /// `unsafeBuffer`...); `nonisolated(unsafe)` is about concurrency, not memory.
  static func spellsUnsafe(_ line: Substring) -> Bool {
    line.replacingOccurrences(of: "nonisolated(unsafe)", with: "").lowercased().contains("unsafe")
  }

  @Test func readsUnsafeAsTheCheckDoes() {
    #expect(Self.spellsUnsafe("bytes.withUnsafeBufferPointer { body($0) }"))
    #expect(Self.spellsUnsafe("let raw = view.unsafeBuffer"))
    #expect(!Self.spellsUnsafe("nonisolated(unsafe) static var lastSerial = 0"))
    #expect(!Self.spellsUnsafe("bytes.withByteView { body($0) }"))
  }

  @Test func onlyPlatformFilesNameTheCLibrary() throws {
    let libraries = ["Glibc", "Musl", "Darwin"]
    for path in RepositoryFiles.swiftFiles
    where !path.hasPrefix("Tests/") && !path.hasSuffix("/Platform.swift") {
      for (index, line) in try Self.codeLines(path).enumerated() {
        for library in libraries
        where line.contains("import \(library)") || line.contains(" \(library).")
          || line.contains("(\(library).")
        {
          Issue.record(
            "\(path):\(index + 1) names \(library); only the module's Platform.swift may (invariant 13)")
        }
      }
    }
  }

  // MARK: The package

  @Test func packageCarriesNoUnsafeFlags() throws {
    let manifest = try RepositoryFiles.text("Package.swift")
    #expect(!manifest.contains("unsafeFlags"), "Package.swift carries unsafeFlags (invariant 14)")
  }

  /// The fuzz targets have no main of their own: two files each, none named main.swift, and the
  /// entry point the same in all (a single file would be compiled as a script, with a main).
  @Test func fuzzTargetsNeedNoParseAsLibrary() throws {
    let targets = RepositoryFiles.folders(in: "Fuzz").filter { $0.hasPrefix("Fuzz") }
    #expect(targets.count == 4)
    let entry = try RepositoryFiles.text("Fuzz/FuzzOutline/Entry.swift")
    for target in targets {
      let files = RepositoryFiles.files(under: "Fuzz/\(target)").filter { $0.hasSuffix(".swift") }
      #expect(files.count >= 2, "Fuzz/\(target) needs two Swift files")
      #expect(!files.contains { $0.hasSuffix("/main.swift") }, "Fuzz/\(target) has a main.swift")
      #expect(
        try RepositoryFiles.text("Fuzz/\(target)/Entry.swift") == entry, "Fuzz/\(target)/Entry.swift differs")
    }
  }

  // MARK: Sizes and names

  /// Source files over 500 lines today, each with why. A new one fails unless its first lines say
  /// why it needs the length ("over 500 lines because ...").
  static let longFiles: [String: String] = [
    "Sources/OutlineValidation/OutlineValidator.swift":
      "the hot class whose stored state the rule groups share",
    "Sources/OutlineLSP/Server.swift": "the server's lifecycle, queues and dispatch: one state machine",
    "Sources/OutlineMigration/Migrator.swift": "the streaming rewrite: one pass whose edits share its state",
  ]

  @Test func noSourceFileIsOverFiveHundredLinesWithoutSayingWhy() throws {
    for path in Self.longFiles.keys.sorted() where !RepositoryFiles.exists(path) {
      Issue.record("\(path) is gone: take it off longFiles")
    }
    for path in RepositoryFiles.swiftFiles where !path.hasPrefix("Tests/") {
      let text = try RepositoryFiles.text(path)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      if Self.longFiles[path] != nil {
        if lines <= 500 { Issue.record("\(path) has \(lines) lines now: take it off longFiles") }
        continue
      }
      guard lines > 500 else { continue }
      let top = text.split(separator: "\n").prefix(10).joined(separator: "\n")
      if !top.contains("over 500 lines because") {
        Issue.record(
          "\(path) has \(lines) lines: split it by job, or say at its top why it is over 500 lines because ..."
        )
      }
    }
  }

  /// Names that two modules may declare (none today).
  static let sharedTypeNames: Set<String> = []

  @Test func noTwoModulesDeclareATypeOfOneName() throws {
    var modules: [String: Set<String>] = [:]
    for path in RepositoryFiles.swiftFiles where !path.hasPrefix("Tests/") {
      for line in try Self.codeLines(path) {
        guard let name = Self.declaredTypeName(line) else { continue }
        modules[name, default: []].insert(RepositoryFiles.module(of: path))
      }
    }
    #expect(modules["OutlineValidator"] == ["OutlineValidation"])
    for (name, declaring) in modules where declaring.count > 1 && !Self.sharedTypeNames.contains(name) {
      Issue.record(
        "\(name) is declared in \(declaring.sorted().joined(separator: " and ")): give each its own name")
    }
  }

  /// The name a top-level type declaration declares (a line at column 0), or nil.
  static func declaredTypeName(_ line: Substring) -> String? {
    guard let first = line.first, first.isLetter || first == "@" else { return nil }
    let words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ":" || $0 == "<" || $0 == "{" })
    guard
      let index = words.firstIndex(where: { ["struct", "class", "enum", "protocol", "actor"].contains($0) }),
      index + 1 < words.count,
      words[..<index].allSatisfy({ Self.modifiers.contains($0) || $0.hasPrefix("@") })
    else { return nil }
    return String(words[index + 1])
  }

  static let modifiers: Set<Substring> = ["public", "package", "internal", "private", "fileprivate", "final"]

  @Test func readsDeclarationsAsTheCheckDoes() {
    #expect(Self.declaredTypeName("public final class AtomicCounter: Sendable {") == "AtomicCounter")
    #expect(Self.declaredTypeName("@usableFromInline struct Frame {") == "Frame")
    #expect(Self.declaredTypeName("enum Kind<T> {") == "Kind")
    #expect(Self.declaredTypeName("  struct Nested {") == nil)
    #expect(Self.declaredTypeName("let enumValue = 1") == nil)
    #expect(Self.declaredTypeName("extension Foo {") == nil)
  }

  // MARK: Comments say why, not how fast

  @Test func noSourceCommentQuotesAMeasurement() throws {
    for path in RepositoryFiles.swiftFiles where !path.hasPrefix("Tests/") {
      let lines = try RepositoryFiles.text(path).split(separator: "\n", omittingEmptySubsequences: false)
      for (line, comment) in Self.comments(lines) {
        guard let figure = Self.measurement(in: comment[...]) else { continue }
        Issue.record(
          "\(path):\(line) quotes a measurement ('\(figure)'): keep the reason, move the figure to Performance.md"
        )
      }
    }
  }

  /// Each comment of a file with the number of its first line: a run of lines that are only
  /// comments is one, joined with spaces (a figure may wrap), and a comment after code is one.
  static func comments(_ lines: [Substring]) -> [(line: Int, text: String)] {
    var comments: [(line: Int, text: String)] = []
    var open = false
    for (index, line) in lines.enumerated() {
      guard let text = Self.comment(line) else {
        open = false
        continue
      }
      let alone = line.drop(while: { $0 == " " }).hasPrefix("//")
      if alone && open {
        comments[comments.count - 1].text += " " + text.drop(while: { $0 == "/" })
      } else {
        comments.append((index + 1, String(text.drop(while: { $0 == "/" }))))
      }
      open = alone
    }
    return comments
  }

  @Test func readsCommentsAsTheCheckDoes() {
    let lines: [Substring] = [
      "/// about 7,000", "/// instructions a file", "let x = 1  // 5% of it", "", "// b",
    ]
    let comments = Self.comments(lines)
    #expect(comments.map(\.line) == [1, 3, 5])
    #expect(comments.map(\.text) == [" about 7,000  instructions a file", " 5% of it", " b"])
    #expect(Self.measurement(in: comments[0].text[...]) == "7,000  instructions")
  }

  /// What follows `//` on a line, or nil.
  static func comment(_ line: Substring) -> Substring? {
    guard let range = line.range(of: "//") else { return nil }
    return line[range.upperBound...]
  }

  /// The first measurement figure a comment quotes: instructions, page faults, a share of a run,
  /// a time at a size, a speed-up, a profiler's name.
  static func measurement(in comment: Substring) -> String? {
    let patterns = [
      #"[0-9][0-9.,]*\s?[KMG]?\s+instructions"#, #"(million|thousand|hundred)\s+instructions"#,
      #"[0-9]+(\.[0-9]+)?%\s+of\b"#, #"page faults"#, #"[0-9]+(\.[0-9]+)?\s?(ms|µs|ns|s)\s+at\s+[0-9]"#,
      #"\b[0-9]+(\.[0-9]+)?x\b"#, #"callgrind|cachegrind|valgrind"#,
    ]
    for pattern in patterns {
      if let range = comment.range(of: pattern, options: [.regularExpression, .caseInsensitive]) {
        return String(comment[range])
      }
    }
    return nil
  }

  @Test func readsMeasurementsAsTheCheckDoes() {
    #expect(
      Self.measurement(in: " building it is 0.4M instructions, 6% of a tiny run") == "0.4M instructions")
    #expect(Self.measurement(in: " about 15 million instructions a run") == "million instructions")
    #expect(Self.measurement(in: " 70% of lint's") == "70% of")
    #expect(Self.measurement(in: " a copy each keystroke: 40 ms at 1M") == "40 ms at 1")
    #expect(Self.measurement(in: " costs 10x.") == "10x")
    #expect(Self.measurement(in: " Processing instructions carry no outline data") == nil)
    #expect(Self.measurement(in: " relative to `%SRCROOT%`, as `%XX`") == nil)
    #expect(Self.measurement(in: " progress after 200 ms") == nil)
    #expect(Self.measurement(in: " the byte 0x1F") == nil)
  }

  /// A file's lines outside comments (a line's text before `//`).
  static func codeLines(_ path: String) throws -> [Substring] {
    try RepositoryFiles.text(path).split(separator: "\n", omittingEmptySubsequences: false).map { line in
      guard let range = line.range(of: "//") else { return line }
      return line[..<range.lowerBound]
    }
  }
}
