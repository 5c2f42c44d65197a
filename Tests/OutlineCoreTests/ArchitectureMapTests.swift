import Foundation
import Testing

/// Documentation/Architecture.md stays a map: short, readable lines, a section for every module,
/// and every name it gives still found in the code (a word of it, or a Swift file of that name).
@Suite struct ArchitectureMapTests {
  static let path = "Documentation/Architecture.md"

  @Test func isUnderThreeThousandWords() throws {
    let text = try RepositoryFiles.text(Self.path)
    let words = text.split(whereSeparator: { $0.isWhitespace }).count
    #expect(words < 3000, "Architecture.md has \(words) words; it is a map: put detail in doc comments")
  }

  @Test func hasNoLineOverTwoHundredCharacters() throws {
    let lines = try RepositoryFiles.text(Self.path).split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() where line.count > 200 {
      Issue.record("Architecture.md:\(index + 1) has \(line.count) characters")
    }
  }

  @Test func hasASectionForEveryModuleFolder() throws {
    let headings = try RepositoryFiles.text(Self.path).split(separator: "\n").filter { $0.hasPrefix("#") }
    let modules = RepositoryFiles.folders(in: "Sources")
    #expect(modules.count > 10)
    for module in modules where !headings.contains(where: { $0.contains("`\(module)`") }) {
      Issue.record("Architecture.md has no section whose heading names `\(module)`")
    }
  }

  @Test func everyNameItGivesIsInTheCode() throws {
    let words = try RepositoryFiles.codeWords()
    let files = RepositoryFiles.swiftFiles
    let names = try Self.codeSpans(RepositoryFiles.text(Self.path))
    #expect(names.count > 100)
    for name in names {
      switch Self.kind(of: name) {
      case .path(let path):
        let found =
          ["", "Sources/", "Tests/", "Fuzz/"].contains { RepositoryFiles.exists($0 + path) }
          || files.contains { $0.hasSuffix("/" + path) || $0.contains("/" + path + "/") }
        if !found { Issue.record("Architecture.md names `\(name)`, which is no file or folder") }
      case .identifier(let parts):
        if parts.count == 1 && files.contains(where: { $0.hasSuffix("/\(name).swift") }) { continue }
        for part in parts where !words.contains(part) {
          Issue.record("Architecture.md names `\(name)`, but `\(part)` is not in Sources/, Tests/ or Fuzz/")
        }
      case .other:
        break
      }
    }
  }

  @Test func readsNamesAsTheCheckDoes() {
    #expect(
      Self.codeSpans("a `Name` b\n```\n`Skipped`\n```\n`x.y` `A.b(of:)`") == ["Name", "x.y", "A.b(of:)"])
    #expect(Self.kind(of: "SourceText.position(of:unit:)") == .identifier(["SourceText", "position"]))
    #expect(Self.kind(of: "subtreeEnd") == .identifier(["subtreeEnd"]))
    #expect(Self.kind(of: "rules") == .other)
    #expect(Self.kind(of: "--force") == .other)
    #expect(Self.kind(of: "OutlineLSP/Features/") == .path("OutlineLSP/Features"))
    #expect(Self.kind(of: "ItemLane.swift") == .path("ItemLane.swift"))
    #expect(Self.kind(of: "OutlineCommands/<Name>Command.swift") == .other)
    #expect(Self.kind(of: "textDocument/didOpen") == .other)
  }

  /// What a code span of the map names.
  enum Kind: Equatable {
    /// A file or folder, relative to the root or to a code folder.
    case path(String)
    /// A type, member or other identifier of the code: its dotted parts.
    case identifier([String])
    /// Anything else: a command line, a flag, a plain word.
    case other
  }

  /// The text of every single-backtick span outside fenced code blocks.
  static func codeSpans(_ text: String) -> [String] {
    var spans: [String] = []
    var fenced = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        fenced.toggle()
        continue
      }
      if fenced { continue }
      let pieces = line.split(separator: "`", omittingEmptySubsequences: false)
      for index in stride(from: 1, to: pieces.count - 1, by: 2) { spans.append(String(pieces[index])) }
    }
    return spans
  }

  /// Folders at the root and module folders: a span starting with one of them is a path.
  static let pathRoots: Set<String> = Set(
    [
      ".ci", ".github", "Benchmarks", "Documentation", "Fuzz", "Sources", "Tests", "examples", "schema",
      "scripts",
    ]
      + RepositoryFiles.folders(in: "Sources") + RepositoryFiles.folders(in: "Tests"))

  static func kind(of span: String) -> Kind {
    if span.contains(where: { " <*@!-".contains($0) }) { return .other }
    if span.contains("/") || span.hasSuffix(".swift") {
      let path = span.hasSuffix("/") ? String(span.dropLast()) : span
      let first = String(path.split(separator: "/").first ?? "")
      return pathRoots.contains(first) || span.hasSuffix(".swift") || span.hasSuffix("/")
        ? .path(path) : .other
    }
    let name = span.split(separator: "(").first.map(String.init) ?? span
    let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    let isIdentifier = parts.allSatisfy { part in
      guard let first = part.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else {
        return false
      }
      return part.unicodeScalars.allSatisfy {
        $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_"
      }
    }
    guard isIdentifier, name.contains(where: { $0.isUppercase }) else { return .other }
    return .identifier(parts)
  }
}
