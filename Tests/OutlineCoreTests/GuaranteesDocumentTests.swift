import Foundation
import Testing

/// Documentation/Guarantees.md names, for every promise, the tests that check it, as
/// `` `Target/File.swift` `testName` ``. Each named test must exist, so the page cannot point
/// at a test that was renamed or removed.
@Suite struct GuaranteesDocumentTests {
  /// The (file, test) pairs the page names, in order.
  static func namedTests(in text: String) -> [(file: String, test: String)] {
    // Joined lines: a reference may be wrapped between its file and its test.
    let flat = text.replacingOccurrences(of: "\n  ", with: " ")
    var pairs: [(String, String)] = []
    var rest = flat[...]
    while let open = rest.range(of: "`"), let close = rest[open.upperBound...].range(of: "`") {
      let name = String(rest[open.upperBound..<close.lowerBound])
      rest = rest[close.upperBound...]
      guard name.hasSuffix(".swift"), name.contains("Tests/"),
        rest.hasPrefix(" `"), let end = rest.dropFirst(2).firstIndex(of: "`")
      else { continue }
      let test = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<end])
      pairs.append((name, test))
      rest = rest[rest.index(after: end)...]
    }
    return pairs
  }

  @Test func everyTestThePageNamesExists() throws {
    let page = try RepositoryFiles.text("Documentation/Guarantees.md")
    let pairs = Self.namedTests(in: page)
    #expect(pairs.count >= 100, "the page names \(pairs.count) tests")
    var missing: [String] = []
    for (file, test) in pairs {
      guard let source = try? RepositoryFiles.text("Tests/" + file) else {
        missing.append("\(file) (no such file)")
        continue
      }
      if !source.contains("func \(test)(") { missing.append("\(file): \(test)") }
    }
    #expect(missing.isEmpty, "Guarantees.md names tests that do not exist: \(missing)")
  }

  @Test func namedTestsAreReadAcrossWrappedLines() {
    let text = "- a promise. *examples*: `ATests/B.swift`\n  `first`; `CTests/D.swift` `second`; `x` `y`"
    let pairs = Self.namedTests(in: text)
    #expect(pairs.map(\.file) == ["ATests/B.swift", "CTests/D.swift"])
    #expect(pairs.map(\.test) == ["first", "second"])
  }
}
